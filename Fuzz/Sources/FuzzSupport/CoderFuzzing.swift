import Foundation
@_exported import WebImageCore
@_exported import WebImageGIF
@_exported import WebImageJPEG
@_exported import WebImagePNG
@_exported import WebImageWebP

/// What every fuzz target does with one input: decode it as a whole, as a thumbnail and
/// as its first frame, and, for a progressive coder, decode its first half as a partial
/// image. Any outcome is fine except a crash, a hang or a sanitizer report; the limits
/// are tight so that a hostile header costs little memory.
public enum CoderFuzzing {
    /// The options of the whole-image decode: limits far below the defaults.
    public static let limitedOptions: ImageDecodeOptions = {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1 << 22
        options.maxTotalBytes = 1 << 26
        options.maxChunkBytes = 1 << 20
        options.maxAnimationWork = 1 << 24
        options.maxFrameCount = 1_000
        return options
    }()

    /// Runs one input through `coder`.
    public static func exercise(_ coder: some ImageCoder, bytes: UnsafePointer<UInt8>, count: Int) {
        let data = Data(bytes: bytes, count: count)
        guard coder.canDecode(data) else { return }
        var options = limitedOptions
        if let image = try? coder.decode(data, options: options) {
            // Whatever decoded must re-encode without trouble.
            _ = try? coder.encode(image, as: image.format, options: ImageEncodeOptions())
        }
        options.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        _ = try? coder.decode(data, options: options)
        options.firstFrameOnly = true
        _ = try? coder.decode(data, options: options)
        if let progressive = coder as? any ProgressiveImageCoder {
            _ = try? progressive.decodeIncrementally(data.prefix(count / 2), isComplete: false, options: limitedOptions)
        }
    }
}
