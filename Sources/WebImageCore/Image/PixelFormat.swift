/// How the pixels of a ``Bitmap`` are laid out.
///
/// Colour is always RGB order with straight (not premultiplied) alpha; opaque images
/// carry alpha 255 (or 65535). Two depths keep the model small: every 8-bit source
/// decodes to ``rgba8`` and 16-bit PNG keeps its precision as ``rgba16``.
public enum PixelFormat: String, Sendable, Hashable {
    /// Four 8-bit channels: red, green, blue, alpha.
    case rgba8
    /// Four 16-bit channels in the host's byte order: red, green, blue, alpha.
    case rgba16

    /// Bytes taken by one pixel.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8: 4
        case .rgba16: 8
        }
    }

    /// Bits per channel.
    public var bitsPerComponent: Int {
        switch self {
        case .rgba8: 8
        case .rgba16: 16
        }
    }
}
