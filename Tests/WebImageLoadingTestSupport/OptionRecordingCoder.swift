import Foundation
import NIOConcurrencyHelpers
@testable import WebImage
@testable import WebImageTestSupport

/// A coder option only ``OptionRecordingCoder`` reads: a label for the decode.
enum DecodeLabelKey: ImageCoderOptionKey {
    static let defaultValue = "none"
}

/// A ``RawTestCoder`` that records the ``DecodeLabelKey`` of every decode it is asked for.
final class OptionRecordingCoder: ImageCoder {
    private let inner = RawTestCoder()
    private let labels = NIOLockedValueBox<[String]>([])

    /// The labels of the decodes so far, in order.
    var decodedLabels: [String] { labels.withLockedValue { $0 } }

    func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        labels.withLockedValue { $0.append(options.coderOptions[DecodeLabelKey.self]) }
        return try inner.decode(data, options: options)
    }

    func canEncode(to format: ImageFormat) -> Bool { inner.canEncode(to: format) }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        try inner.encode(image, as: format, options: options)
    }
}
