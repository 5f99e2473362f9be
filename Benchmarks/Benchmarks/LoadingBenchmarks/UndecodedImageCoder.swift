import Foundation
import WebImage

/// Accepts any data and returns a 1×1 image without decoding it, so a downloader using
/// it measures the network path alone.
struct UndecodedImageCoder: ImageCoder {
    func canDecode(_ data: Data) -> Bool { true }

    func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        Image(bitmap: Bitmap(width: 1, height: 1))
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.unsupportedFormat, "this benchmark coder does not encode")
    }
}
