import Foundation
import NIOConcurrencyHelpers
import WebImage
import WebImageTestSupport

/// A coder option only ``OptionRecordingCoder`` reads: a label for the decode.
package enum DecodeLabelKey: ImageCoderOptionKey {
    package static let defaultValue = "none"
}

/// A ``RawTestCoder`` that records the ``DecodeLabelKey`` of every decode it is asked for.
package final class OptionRecordingCoder: ImageCoder {
    private let inner = RawTestCoder()
    private let labels = NIOLockedValueBox<[String]>([])

    package init() {}

    /// The labels of the decodes so far, in order.
    package var decodedLabels: [String] { labels.withLockedValue { $0 } }

    package func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }

    package func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        labels.withLockedValue { $0.append(options.coderOptions[DecodeLabelKey.self]) }
        return try inner.decode(data, options: options)
    }

    package func canEncode(to format: ImageFormat) -> Bool { inner.canEncode(to: format) }

    package func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        try inner.encode(image, as: format, options: options)
    }
}
