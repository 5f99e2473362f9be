#if SVG
import CRSVG
import WebImageCore

/// One SVG document parsed by librsvg, with no base URI and librsvg's limits on, rendered
/// into RGBA8 bitmaps.
///
/// librsvg reads the bytes it is given once, while the document is made: nothing points
/// into them afterwards. The coder still makes and frees each document inside the closure
/// that lends the bytes.
final class SVGDocument {
    /// The longest side the size of a document that gives only a `viewBox` may have: the
    /// `viewBox` is fitted inside a square of this side.
    static let longestViewBoxSide = 2048.0

    /// The size of a document that gives neither a size nor a `viewBox`, CSS's default
    /// size of a replaced element.
    static let sizeWithoutDimensions = (width: 300.0, height: 150.0)

    /// The largest side cairo gives an image surface.
    static let longestSurfaceSide = 32767

    private let handle: OpaquePointer

    /// Parses `bytes` with `RSVG_HANDLE_FLAGS_NONE` and no base file.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` with librsvg's message when it refuses
    ///   the document (malformed XML, an element or nesting limit passed).
    init(bytes: UnsafeRawBufferPointer) throws(ImageError) {
        let stream = g_memory_input_stream_new_from_data(bytes.baseAddress, gssize(bytes.count), nil)
        defer { g_object_unref(stream) }
        var error: UnsafeMutablePointer<GError>?
        let parsed = rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, &error)
        guard let parsed else {
            throw ImageError(.badImageData, "librsvg refused the SVG: \(Self.message(consuming: error))")
        }
        handle = OpaquePointer(parsed)
        rsvg_handle_set_dpi(UnsafeMutablePointer(handle), 96)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(handle))
    }

    /// The size the document declares, in pixels at 96 dpi: its `width` and `height`; else
    /// its `viewBox`, fitted inside ``longestViewBoxSide``; else ``sizeWithoutDimensions``.
    var intrinsicSize: (width: Double, height: Double) {
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(UnsafeMutablePointer(handle), &width, &height) != 0,
            width.isFinite, height.isFinite, width > 0, height > 0
        {
            return (width, height)
        }
        var hasViewBox: gboolean = 0
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(UnsafeMutablePointer(handle), nil, nil, nil, nil, &hasViewBox, &viewBox)
        guard hasViewBox != 0, viewBox.width.isFinite, viewBox.height.isFinite, viewBox.width > 0, viewBox.height > 0 else {
            return Self.sizeWithoutDimensions
        }
        let ratio = min(1, Self.longestViewBoxSide / max(viewBox.width, viewBox.height))
        return (viewBox.width * ratio, viewBox.height * ratio)
    }

    /// ``intrinsicSize`` in whole pixels (rounded up, at least 1), refused with
    /// ``ImageError/Code/imageTooLarge`` when a side is beyond `Int32`.
    func pixelSize() throws(ImageError) -> PixelSize {
        let size = intrinsicSize
        let limit = Double(Int32.max)
        guard size.width <= limit, size.height <= limit else {
            throw ImageError(.imageTooLarge, "the SVG declares \(size.width)×\(size.height) pixels")
        }
        return PixelSize(width: max(1, Int(size.width.rounded(.up))), height: max(1, Int(size.height.rounded(.up))))
    }

    /// Draws the whole document into a transparent bitmap of `size`, its intrinsic size
    /// stretched to fill it: the vector is scaled, so every size is drawn sharp.
    ///
    /// - Throws: ``ImageError/Code/imageTooLarge`` for a side cairo cannot allocate,
    ///   ``ImageError/Code/badImageData`` when librsvg fails to render.
    func render(at size: PixelSize) throws(ImageError) -> Bitmap {
        guard size.width <= Self.longestSurfaceSide, size.height <= Self.longestSurfaceSide else {
            throw ImageError(.imageTooLarge, "\(size) is over cairo's limit of \(Self.longestSurfaceSide) pixels a side")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height)) else {
            throw ImageError(.imageTooLarge, "cairo could not make a surface of \(size)")
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw ImageError(.imageTooLarge, "cairo could not make a surface of \(size)")
        }
        let context = cairo_create(surface)
        defer { cairo_destroy(context) }
        let intrinsic = intrinsicSize
        cairo_scale(context, Double(size.width) / intrinsic.width, Double(size.height) / intrinsic.height)
        var viewport = RsvgRectangle(x: 0, y: 0, width: intrinsic.width, height: intrinsic.height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(UnsafeMutablePointer(handle), context, &viewport, &error) != 0 else {
            throw ImageError(.badImageData, "librsvg could not render the SVG: \(Self.message(consuming: error))")
        }
        cairo_surface_flush(surface)
        guard let pixels = cairo_image_surface_get_data(surface) else {
            throw ImageError(.badImageData, "cairo gave no pixels")
        }
        return try Self.straightRGBA(premultipliedARGB: pixels, bytesPerRow: Int(cairo_image_surface_get_stride(surface)), size: size)
    }

    /// Cairo's premultiplied native-endian ARGB32 rows, as straight-alpha RGBA8; throws
    /// ``ImageError/Code/imageTooLarge`` when the copy cannot be had.
    private static func straightRGBA(premultipliedARGB pixels: UnsafeMutablePointer<UInt8>, bytesPerRow: Int, size: PixelSize) throws(ImageError) -> Bitmap {
        var bitmap = try Bitmap(zeroedWidth: size.width, height: size.height)
        bitmap.pixels.withUnsafeMutableBufferPointer { output in
            var index = 0
            for y in 0..<size.height {
                let row = UnsafeRawPointer(pixels + y * bytesPerRow)
                for x in 0..<size.width {
                    let argb = row.load(fromByteOffset: x * 4, as: UInt32.self)
                    let alpha = Int(argb >> 24)
                    if alpha != 0 {
                        func straight(_ shift: UInt32) -> UInt8 {
                            UInt8(min(255, (Int(argb >> shift & 0xFF) * 255 + alpha / 2) / alpha))
                        }
                        output[index] = straight(16)
                        output[index + 1] = straight(8)
                        output[index + 2] = straight(0)
                        output[index + 3] = UInt8(alpha)
                    }
                    index += 4
                }
            }
        }
        return bitmap
    }

    /// The message of a GLib error, which this frees.
    private static func message(consuming error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "no reason given"
    }
}
#endif
