import Foundation
import WebImage

/// What a source's bytes declare before any pixel is decoded: its size and its frames
/// (an animation's, where its coder reads animations; a TIFF's pages are counted by its
/// decoder, before the first page is decoded), checked against the server's limits, and
/// the memory its decode is planned to take.
struct SourceHeader: Sendable {
    /// The size the header declares; for a coder that reads no header, the largest a
    /// source may be (a square of the pixel limit), so that its decode is never planned
    /// smaller than it can be.
    let size: PixelSize
    /// The frames the container holds (1 for a still).
    let frames: Int
    /// The format the bytes are, whose decoder the plan is for.
    let format: ImageFormat
    /// The pixels of the HDR gain map behind the picture (an Ultra HDR JPEG's), decoded
    /// with it; 0 for none.
    var gainMapPixels = 0

    /// The bytes a decode of `format` is planned at for each pixel of each frame: the
    /// decoded bitmap and the decoder's own buffers, from the peak resident memory of a
    /// 16 MP decode of each format (the Security article has the figures), with a margin
    /// of about a fifth. A format measured under 8 keeps 8 (the plan before the measure)
    /// until its costlier variants — progressive JPEG, 16-bit and interlaced PNG, CMYK
    /// TIFF — are measured too.
    static func decodeBytesPerPixel(_ format: ImageFormat) -> Int {
        switch format {
        case .jxl: 47
        case .heic, .heif: 14
        case .png: 10
        case .avif: 9
        default: 8
        }
    }

    /// Reads the header of `data`.
    ///
    /// - Throws: `ImageError` as `ImageCodersManager.checkHeader(of:options:)` does (a
    ///   size past `options`' pixel limit is `.imageTooLarge`), and `.imageTooLarge` for
    ///   a shape more extreme than `maxAspectRatio` or more frames than `options` allow.
    init(data: Data, coders: ImageCodersManager, options: ImageDecodeOptions, maxAspectRatio: Double) throws(ImageError) {
        let declared = try coders.checkHeader(of: data, options: options)
        var counting = options
        counting.decodesFramesOnDemand = true
        let frames = (try? coders.animatedImage(from: data, options: counting).frameCount) ?? 1
        try self.init(declared: declared, frames: frames, format: ImageFormat(sniffing: data), options: options, maxAspectRatio: maxAspectRatio)
        if let gainMap = JPEGCoder.gainMap(describedIn: data) { gainMapPixels = gainMap.size.pixelCount ?? 0 }
    }

    /// The header that declares `declared` (`nil` when its coder reads none) and holds
    /// `frames` in `format`, as a decode worker read it (see `DecodeWorkers`).
    ///
    /// - Throws: `ImageError` `.imageTooLarge` for a shape more extreme than
    ///   `maxAspectRatio` or more frames than `options` allow.
    init(declared: PixelSize?, frames: Int, format: ImageFormat, options: ImageDecodeOptions, maxAspectRatio: Double) throws(ImageError) {
        self.format = format
        if let declared {
            size = declared
        } else {
            let side = Int(Double(options.maxPixelCount).squareRoot())
            size = PixelSize(width: side, height: side)
        }
        let ratio = Double(max(size.width, size.height)) / Double(max(1, min(size.width, size.height)))
        guard ratio <= maxAspectRatio else {
            throw ImageError(
                .imageTooLarge,
                "the header declares \(size.width)×\(size.height) pixels, a shape more extreme than \(maxAspectRatio) to 1")
        }
        guard frames <= options.maxFrameCount else {
            throw ImageError(.imageTooLarge, "the source has \(frames) frames, over the limit of \(options.maxFrameCount)")
        }
        self.frames = max(1, frames)
    }

    /// The bytes the decode is planned to take: ``decodeBytesPerPixel(_:)`` of its format
    /// for every pixel of every frame at the declared size, and for the gain map's (a
    /// decode reduced while it is read takes less).
    var decodeBytes: Int {
        let pixels = Double(size.width) * Double(size.height) * Double(frames) + Double(gainMapPixels)
        return Int(min(pixels * Double(Self.decodeBytesPerPixel(format)), Double(Int.max / 2)))
    }
}
