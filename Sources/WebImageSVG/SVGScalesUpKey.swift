#if SVG
import WebImageCore

/// The `ImageCoderOptions` key that lets ``SVGCoder`` render an SVG larger than its
/// intrinsic size: with a `ImageDecodeOptions/thumbnailPixelSize` box larger than the
/// document, the document is drawn to fit (or fill) the box instead of stopping at its own
/// size, as a vector can be without losing sharpness. Off by default, so that an SVG
/// answers sizes as every other format does (a thumbnail never scales up).
///
/// ```swift
/// var options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 300, height: 300))
/// options.coderOptions[SVGScalesUpKey.self] = true
/// ```
public enum SVGScalesUpKey: ImageCoderOptionKey {
    /// Off: an SVG is never drawn larger than its intrinsic size.
    public static let defaultValue = false
}
#endif
