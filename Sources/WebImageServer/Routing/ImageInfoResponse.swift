import Foundation
import WebImage

/// What `/info/<signature>/<source>` answers: a source's format, size, frames, duration,
/// EXIF orientation, embedded colour profile, dominant colour, placeholder hashes and HDR
/// gain map, as JSON.
///
/// The size comes from the header; the rest from one decode reduced while it is read
/// (shrink-on-load to at most ``sampleSide`` pixels a side), whose average colour is the
/// dominant one and whose ThumbHash and BlurHash are the placeholders (all in sRGB,
/// converted from the source's profile). An animation's frame count and duration come from its container, its
/// frames decoded only as far as the first.
struct ImageInfoResponse: Sendable, Equatable {
    /// The format the bytes are in.
    let format: ImageFormat
    /// The width and height the header declares.
    let width: Int, height: Int
    /// The number of frames (1 for a still).
    let frames: Int
    /// The animation's length in seconds (0 for a still).
    let duration: Double
    /// The EXIF orientation, 1 to 8.
    let orientation: Int
    /// The description of the ICC profile the source embeds (`"Display P3"`…); `nil` for
    /// none (sRGB), or a profile whose description cannot be read.
    let colorProfile: String?
    /// The average colour of the reduced picture in sRGB, opaque pixels weighted by alpha.
    let dominantColour: RGBA8
    /// The reduced picture's ThumbHash, in base64.
    let thumbHash: String
    /// The reduced picture's BlurHash, 4 × 3 components.
    let blurHash: String
    /// The size, as shown, of the HDR gain map behind the picture (an Ultra HDR JPEG's);
    /// `nil` for none.
    let gainMapSize: PixelSize?
    /// The gain map's metadata (its channels and HDR headroom); `nil` for none.
    let gainMapMetadata: GainMapMetadata?

    /// The largest side of the reduced decode the colour and hashes come from (a ThumbHash
    /// reads at most 100).
    static let sampleSide = 32

    /// Reads `data`'s header and its reduced decode.
    ///
    /// - Throws: `ImageError` as the coders do, and for a header over `options`' pixel
    ///   limit.
    init(data: Data, coders: ImageCodersManager, options: ImageDecodeOptions) throws(ImageError) {
        let declared = try coders.checkHeader(of: data, options: options)
        var sampling = options
        sampling.thumbnailPixelSize = PixelSize(width: Self.sampleSide, height: Self.sampleSide)
        sampling.firstFrameOnly = true
        let sample = try coders.decode(data, options: sampling)
        format = sample.format
        var frames = 1, duration = 0.0
        var animated = options
        animated.decodesFramesOnDemand = true
        animated.thumbnailPixelSize = sampling.thumbnailPixelSize
        if let animation = try? coders.animatedImage(from: data, options: animated), animation.frameCount > 1 {
            frames = animation.frameCount
            duration = animation.duration
        }
        self.frames = frames
        self.duration = duration
        orientation = sample.orientation.rawValue
        let size = declared ?? sample.pixelSize
        width = size.width
        height = size.height
        colorProfile = sample.colorProfile?.description
        let reduced = sample.convertedToSRGB()
        dominantColour = try Self.average(of: reduced.bitmap)
        thumbHash = try reduced.thumbHash().base64
        blurHash = try reduced.blurHash(components: (x: 4, y: 3)).string
        let gainMap = format == .jpeg ? JPEGCoder.gainMap(describedIn: data) : nil
        gainMapSize = gainMap?.size
        gainMapMetadata = gainMap?.metadata
    }

    /// The alpha-weighted mean colour of `bitmap` (clear when every pixel is); throws
    /// `imageTooLarge` when the 8-bit copy of a 16-bit bitmap cannot be had.
    static func average(of bitmap: Bitmap) throws(ImageError) -> RGBA8 {
        let rgba = try bitmap.convertedToRGBA8()
        var red = 0, green = 0, blue = 0, weight = 0
        for index in stride(from: 0, to: rgba.pixels.count, by: 4) {
            let alpha = Int(rgba.pixels[index + 3])
            red += Int(rgba.pixels[index]) * alpha
            green += Int(rgba.pixels[index + 1]) * alpha
            blue += Int(rgba.pixels[index + 2]) * alpha
            weight += alpha
        }
        guard weight > 0 else { return .clear }
        return RGBA8(
            red: UInt8((red + weight / 2) / weight), green: UInt8((green + weight / 2) / weight),
            blue: UInt8((blue + weight / 2) / weight))
    }

    /// The JSON body.
    var json: String {
        let colour = "#" + dominantColour.hex.prefix(6)
        let profile = colorProfile.map(Self.quoted) ?? "null"
        var gainMap = "null"
        if let size = gainMapSize, let metadata = gainMapMetadata {
            gainMap =
                "{\"width\":\(size.width),\"height\":\(size.height),\"channels\":\(metadata.channelCount),"
                + "\"headroom\":\(metadata.headroom.map { String($0) } ?? "null")}"
        }
        return """
            {"format":"\(format.rawValue)","width":\(width),"height":\(height),"frames":\(frames),\
            "duration":\(duration),"orientation":\(orientation),"colour_profile":\(profile),\
            "dominant_colour":"\(colour)","thumbhash":\(Self.quoted(thumbHash)),"blurhash":\(Self.quoted(blurHash)),\
            "gain_map":\(gainMap)}

            """
    }

    /// `text` as a JSON string: quoted, with quotes, backslashes and control characters
    /// escaped (a profile's description is the source's text).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
