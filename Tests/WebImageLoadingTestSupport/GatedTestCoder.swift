import Foundation
import NIOConcurrencyHelpers
import WebImage
import WebImageTestSupport

/// Decodes like ``RawRGBATestCoder``, but every decode waits until ``open()``, so a test
/// can watch what the downloader does while an image decodes.
package final class GatedTestCoder: ImageCoder {
    private let decoder = RawRGBATestCoder()
    private let isOpen = ConditionLock(value: false)

    package init() {}

    /// Lets every held and future decode run.
    package func open() {
        isOpen.lock()
        isOpen.unlock(withValue: true)
    }

    package func canDecode(_ data: Data) -> Bool {
        decoder.canDecode(data)
    }

    package func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        isOpen.lock(whenValue: true)
        isOpen.unlock()
        return try decoder.decode(data, options: options)
    }

    package func canEncode(to format: ImageFormat) -> Bool { false }

    package func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.unsupportedFormat, "the gated test coder does not encode")
    }
}
