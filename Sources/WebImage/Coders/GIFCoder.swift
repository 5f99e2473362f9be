import Foundation

/// Placeholder until the GIF coder lands: accepts nothing.
public struct GIFCoder: ImageCoder {
    /// Creates the coder.
    public init() {}

    public func canDecode(_ data: Data) -> Bool { false }

    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        throw ImageError(.unsupportedFormat, "GIF decoding is not built yet")
    }

    public func canEncode(to format: ImageFormat) -> Bool { false }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.unsupportedFormat, "GIF encoding is not built yet")
    }
}
