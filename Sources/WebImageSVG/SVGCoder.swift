#if SVG
// Compiled only with the `SVG` package trait, so that a build without it never imports
// CRSVG and needs no librsvg headers.
import CRSVG
import Foundation
import WebImageCore

/// Renders SVG documents with librsvg 2.5x and cairo (decoding only).
///
/// The document is drawn at the size the options ask for, never drawn large and shrunk: a
/// 300-pixel thumbnail of an SVG is rendered with the vector scaled to 300 pixels. Without
/// a thumbnail box the size is the document's own: its `width` and `height` at 96 dpi;
/// with only a `viewBox`, the `viewBox`'s size fitted inside 2048×2048; with neither,
/// 300×150. A thumbnail never scales up unless ``SVGScalesUpKey`` is set.
///
/// ## Security
///
/// SVG is XML that can point at other files, and this coder renders documents from
/// strangers. What is locked down, and how:
///
/// - **Screened markup.** Before librsvg sees a document, libxml2 reads it (from memory,
///   `XML_PARSE_NONET`, no entity substitution, no DTD loading, no XInclude, its default
///   limits, errors kept off the console), and it is refused
///   (`ImageError/Code/badImageData`) when it has a DOCTYPE internal subset (entity
///   declarations) or an entity reference other than the predefined ones and character
///   references; any element in the XInclude namespace; an `<?xml-stylesheet?>`
///   instruction; a CSS `@import` in `<style>` or a `style` attribute; a `url()` of a
///   `data:` URL in `<style>` or any attribute (CSS escapes, case and whitespace are seen
///   through); or what librsvg 2.54 aborts the process on (a Rust panic): an `feTile`
///   element, matched by local name on the parsed elements in any namespace, and an
///   `feConvolveMatrix` whose `kernelMatrix` has over 400 numbers. `SVGMarkupScreen`
///   lists the rules.
/// - **No external resources, and only checked images inline.** The document is parsed
///   with no base file or URI, and librsvg refuses to resolve any reference without a base
///   except `data:` URLs: `<image>`, `<use>`, `xi:include`, CSS `@import` and `url()` that
///   point at `http:`, `file:` or relative paths are not loaded (tested against a loopback
///   server that records requests, which receives none, and against `file:///etc/passwd`).
///   A `data:` URL in an `href` (any namespace) is accepted only on `<image>` and
///   `<feImage>`, only when its base64 or percent-encoded payload decodes to bytes that
///   start as a PNG, JPEG or GIF (gdk-pixbuf picks its loader by the bytes, and has
///   loaders for a dozen other formats, and for SVG through librsvg again), and only when
///   each image's size, read from its header, is within
///   `ImageDecodeOptions/maxPixelCount` and `ImageDecodeOptions/maxTotalBytes` and all
///   of them together within `maxPixelCount` (`ImageError/Code/imageTooLarge`):
///   gdk-pixbuf decodes each at its full size whatever size it is drawn at. A nested SVG
///   document is refused.
/// - **No scripts.** librsvg has no script engine: `<script>` and event attributes are
///   ignored.
/// - **Bounded parsing.** The handle is made with `RSVG_HANDLE_FLAGS_NONE`, never
///   `RSVG_HANDLE_FLAG_UNLIMITED`, so librsvg's own limits stay on: libxml2's element
///   nesting depth (256) and entity-amplification checks (billion laughs is refused),
///   librsvg's cap of 1,000,000 loaded elements and of the elements `<use>` and paint
///   servers may reference. Input over ``maximumByteCount`` is refused before parsing, and
///   gzip-compressed SVG (SVGZ), whose inflated size cannot be bounded beforehand, is
///   not accepted. Documents in encodings that are not ASCII-compatible (UTF-16, UTF-32,
///   UTF-7, EBCDIC) are refused too.
/// - **Bounded pixels.** The output size is known before any pixel memory exists and is
///   checked against `ImageDecodeOptions/maxPixelCount` and
///   `ImageDecodeOptions/maxTotalBytes` (`ImageError/Code/imageTooLarge`), and against
///   cairo's limit of 32,767 pixels a side. A document declaring an enormous size is
///   refused at full size and rendered cheaply as a thumbnail; an enormous `viewBox` alone
///   gets the 2048-pixel default.
///
/// librsvg 2.54 cannot cancel a render, so the time a render takes is bounded only by the
/// limits above: the test suite's hostile documents (billion laughs, 100,000-deep nesting,
/// huge sizes, external references) each end in well under a second.
public struct SVGCoder: ImageCoder {
    /// The largest SVG accepted, in bytes: 10 MiB.
    public static let maximumByteCount = 10 << 20

    /// Creates the coder.
    public init() {}

    /// The formats this coder decodes: SVG.
    public var decodableFormats: Set<ImageFormat> { [.svg] }

    /// Whether `data` looks like an uncompressed SVG document (an `<svg` element near its
    /// start).
    public func canDecode(_ data: Data) -> Bool {
        !Self.isCompressed(data) && ImageFormat(sniffing: data) == .svg
    }

    /// The size the document declares (see the type's description); this parses it.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? {
        try withDocument(data, options: ImageDecodeOptions()) { document throws(ImageError) in try document.pixelSize() }
    }

    /// Renders the document at the options' target size.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        try withDocument(data, options: options) { document throws(ImageError) in
            let size = Self.targetSize(forIntrinsic: try document.pixelSize(), options: options)
            try options.checkAllocation(size)
            let bitmap = try document.render(at: size)
            return Image(bitmap: bitmap, scale: options.scaleFactor ?? 1, format: .svg)
        }
    }

    /// No format: SVG is only decoded.
    public func canEncode(to format: ImageFormat) -> Bool {
        false
    }

    /// Refuses: this coder writes no format.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.unsupportedFormat, "the SVG coder cannot write \(format.rawValue)")
    }

    /// The size to render a document of `intrinsic` pixels at: the options' usual target
    /// size, or with ``SVGScalesUpKey`` the thumbnail box's size even when it is larger.
    static func targetSize(forIntrinsic intrinsic: PixelSize, options: ImageDecodeOptions) -> PixelSize {
        guard options.coderOptions[SVGScalesUpKey.self], let box = options.thumbnailPixelSize, box.width > 0, box.height > 0 else {
            return options.targetSize(forSource: intrinsic)
        }
        guard options.preserveAspectRatio else { return options.targetSize(forSource: box) }
        let ratioX = Double(box.width) / Double(intrinsic.width)
        let ratioY = Double(box.height) / Double(intrinsic.height)
        let ratio = options.coversThumbnailBox ? max(ratioX, ratioY) : min(ratioX, ratioY)
        let scaled = PixelSize(
            width: max(1, Int((Double(intrinsic.width) * ratio).rounded())),
            height: max(1, Int((Double(intrinsic.height) * ratio).rounded()))
        )
        return options.targetSize(forSource: scaled)
    }

    /// Whether `data` starts with the gzip signature (SVGZ).
    private static func isCompressed(_ data: Data) -> Bool {
        data.starts(with: [0x1F, 0x8B])
    }

    /// Runs `body` on the document `data` holds, once `SVGScreening` has passed it with
    /// `options`' limits for its embedded images.
    private func withDocument<Result>(
        _ data: Data,
        options: ImageDecodeOptions,
        _ body: (SVGDocument) throws(ImageError) -> Result
    ) throws(ImageError) -> Result {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        guard data.count <= Self.maximumByteCount else {
            throw ImageError(.imageTooLarge, "the SVG has \(data.count) bytes, over the limit of \(Self.maximumByteCount)")
        }
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not an uncompressed SVG document") }
        return try data.withImageBytes { bytes throws(ImageError) in
            try SVGScreening.check(bytes, options: options)
            return try body(SVGDocument(bytes: bytes))
        }
    }
}
#endif
