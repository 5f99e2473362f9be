import Foundation

/// Placeholder until the WebP coder lands: accepts nothing.
public struct WebPCoder: ImageCoder {
    /// Creates the coder.
    public init() {}

    public func canDecode(_ data: Data) -> Bool { false }

    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        throw ImageError(.unsupportedFormat, "WebP decoding is not built yet")
    }

    public func canEncode(to format: ImageFormat) -> Bool { false }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.unsupportedFormat, "WebP encoding is not built yet")
    }
}
