#if SVG
import Foundation
import WebImageCore
import WebImageGIF
import WebImageJPEG
import WebImagePNG

/// The images one SVG embeds as `data:` URLs, admitted one by one against the decode
/// options' limits before librsvg hands them to gdk-pixbuf.
///
/// gdk-pixbuf picks its loader by the bytes, not by the URL's media type, and it has
/// loaders for many formats nobody needs inside an SVG (PNM, XPM, XBM, TGA, ICNS, ANI,
/// QTIF, TIFF, and librsvg itself for SVG). So only bytes that start with the PNG, JPEG or
/// GIF signature are admitted, and each image's size is read from its header with this
/// project's own coders (the JPEG one with libjpeg's header reader, which gdk-pixbuf's
/// JPEG loader also uses). gdk-pixbuf decodes every image at its full size, so each must
/// be within `ImageDecodeOptions/maxPixelCount` and `ImageDecodeOptions/maxTotalBytes`,
/// and all of them together within `maxPixelCount` too.
struct SVGEmbeddedImages {
    /// The limits the images are held to.
    let options: ImageDecodeOptions

    /// The pixels of the images admitted so far.
    private(set) var pixelCount = 0

    /// Creates an empty set held to `options`.
    init(options: ImageDecodeOptions) {
        self.options = options
    }

    /// Admits the image `bytes` embedded on the element named `element`.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when the bytes are not a PNG, JPEG or
    ///   GIF with a readable header (a nested SVG document among them);
    ///   ``ImageError/Code/imageTooLarge`` when the image, or all the images so far
    ///   together, are over the limits.
    mutating func admit(_ bytes: [UInt8], on element: String) throws(ImageError) {
        let data = Data(bytes)
        let size: PixelSize?
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            size = try PNGCoder().pixelSize(of: data)
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            size = try JPEGCoder().pixelSize(of: data)
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            size = try GIFCoder().pixelSize(of: data)
        } else if ImageFormat(sniffing: data) == .svg {
            throw ImageError(.badImageData, "the SVG embeds a nested SVG document in <\(element)>")
        } else {
            throw ImageError(.badImageData, "the SVG embeds an image in <\(element)> that is not a PNG, JPEG or GIF")
        }
        guard let size, let pixels = size.pixelCount else {
            throw ImageError(.badImageData, "the SVG embeds an image in <\(element)> whose size cannot be read")
        }
        do {
            try options.checkAllocation(size)
        } catch {
            throw ImageError(error.code, "the SVG embeds an image in <\(element)> that is too large: \(error.message)")
        }
        let (total, overflow) = pixelCount.addingReportingOverflow(pixels)
        pixelCount = overflow ? .max : total
        guard pixelCount <= options.maxPixelCount else {
            throw ImageError(
                .imageTooLarge,
                "the SVG's embedded images have \(pixelCount) pixels together, over the limit of \(options.maxPixelCount)"
            )
        }
    }
}
#endif
