#if JXL
import WebImageCore

/// Why ``JXLCoder/recompress(jpeg:colorProfile:limits:)`` did not recompress a JPEG.
///
/// Every case leaves the JPEG as it was: a caller that still wants JPEG XL decodes the
/// JPEG and encodes its pixels instead (the server and `webimage convert` do), and that
/// decode reports a damaged file as it would without the recompression.
public enum JXLRecompressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data does not start with a JPEG's start-of-image marker.
    case notJPEG
    /// The JPEG's marker segments cannot be walked to its end-of-image marker (truncated
    /// or damaged), or it has more scans than ``JXLCoder/maxRecompressedScans``.
    case malformedJPEG(String)
    /// The JPEG carries an EXIF or XMP orientation other than upright: the JPEG XL would
    /// show the stored pixels unturned, since the orientation is metadata the
    /// recompression drops.
    case notUpright(ImageOrientation)
    /// The JPEG carries an ICC profile and the options convert to sRGB, which needs its
    /// pixels changed.
    case colorProfileNeedsConversion
    /// The JPEG's declared size is past the limits given, as a decode of it would be.
    case tooLarge(String)
    /// libjxl refused the JPEG (arithmetic coding, 12-bit or CMYK samples, colour data
    /// libjxl 0.7 cannot represent), with its `JxlEncoderError` code.
    case refused(code: Int)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .notJPEG: "the data is not a JPEG"
        case .malformedJPEG(let reason): "the JPEG cannot be recompressed: \(reason)"
        case .notUpright(let orientation): "the JPEG's orientation (\(orientation)) is not upright"
        case .colorProfileNeedsConversion: "the JPEG's ICC profile would have to be converted to sRGB"
        case .tooLarge(let reason): reason
        case .refused(let code): "libjxl refused to recompress the JPEG (error \(code))"
        }
    }
}
#endif
