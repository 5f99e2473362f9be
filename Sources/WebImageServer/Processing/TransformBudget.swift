import Foundation
import WebImage

/// What one request's transform may cost, checked before the work that would cost it:
/// the number of operations and the sizes a spec names before anything is fetched, then,
/// once the source's size is known, every canvas the transform will make (rotations and
/// resizes grow them) and the pixel memory each step reads and writes.
///
/// Running out is a refusal of that request (413, or 422 for a spec that cannot apply to
/// the source), never a trap: other requests carry on.
struct TransformBudget: Sendable {
    /// The most pixels any canvas may have.
    let maxPixels: Int
    /// The most operations a spec may have.
    let maxOperations: Int
    /// The most bytes of pixel memory one step may read and write, over all frames.
    let memoryBudget: Int

    /// The bytes one pixel may take while a step works on it: premultiplied floats, the
    /// widest form the library's transformers use.
    static let bytesPerPixel = 16

    /// A budget from the server's configuration.
    init(_ configuration: ImageServerConfiguration) {
        maxPixels = configuration.maxResultPixels ?? configuration.maxSourcePixels
        maxOperations = configuration.maxOperations
        memoryBudget = configuration.requestMemoryBudget
    }

    /// Checks `spec` (with `operationCount` operations as written) before the source is
    /// fetched.
    ///
    /// - Throws: ``ImageServerError`` 400 for too many operations, 413 for a size the spec
    ///   names that is larger than the pixel limit.
    func check(_ spec: TransformSpec, operationCount: Int) throws(ImageServerError) {
        guard operationCount <= maxOperations else {
            throw ImageServerError(.badRequest, "bad spec: more than \(maxOperations) operations")
        }
        for transformer in spec.transformers {
            var named: Int?
            switch transformer {
            case let resize as ResizingImageTransformer:
                named = (resize.width ?? 1).multipliedReportingOverflow(by: resize.height ?? 1).partialValue
            case let crop as CroppingImageTransformer:
                named = crop.size.width.multipliedReportingOverflow(by: crop.size.height).partialValue
            case let extend as ExtendingImageTransformer:
                named = extend.size.width.multipliedReportingOverflow(by: extend.size.height).partialValue
            default:
                break
            }
            if let named, named > maxPixels || named < 0 {
                throw ImageServerError(.contentTooLarge, "the spec asks for more than \(maxPixels) pixels")
            }
        }
    }

    /// The size each of `transformers` leaves a `source`-sized image of `frames` frames
    /// at, checked step by step against the limits, and the most pixel memory a step takes.
    ///
    /// - Returns: The size of the result, and the bytes of the costliest step: the canvases
    ///   it reads and writes as floats, and a resize's scratch between its two passes
    ///   (`Bitmap.resamplingScratchPixels(from:to:)`: a few rows per core for ordinary
    ///   shapes), for every frame.
    /// - Throws: ``ImageServerError`` 413 when a canvas or a step's memory is over the
    ///   budget, 422 when an operation leaves nothing of the source.
    func plan(
        _ transformers: [any ImageTransformer], source: PixelSize, frames: Int
    ) throws(ImageServerError) -> (size: PixelSize, peakBytes: Int) {
        var size = source
        var peak = 0.0
        for transformer in transformers {
            let (working, result) = try Self.step(transformer, on: size)
            for canvas in [working, result] {
                let pixels = Double(canvas.width) * Double(canvas.height)
                guard pixels <= Double(maxPixels) else {
                    throw ImageServerError(
                        .contentTooLarge, "the result would be larger than \(maxPixels) pixels",
                        detail: "\(transformer.key) makes a \(canvas.width)x\(canvas.height) canvas")
                }
            }
            var touched = Double(size.width) * Double(size.height) + Double(working.width) * Double(working.height)
            if transformer is ResizingImageTransformer, working != size {
                touched += Double(Bitmap.resamplingScratchPixels(from: size, to: working))
            }
            let bytes = touched * Double(max(frames, 1)) * Double(Self.bytesPerPixel)
            guard bytes <= Double(memoryBudget) else {
                throw ImageServerError(
                    .contentTooLarge, "the transform would take more memory than a request may",
                    detail: "\(transformer.key) on \(size.width)x\(size.height), \(frames) frames")
            }
            peak = max(peak, bytes)
            size = result
        }
        return (size, Int(peak))
    }

    /// Checks that writing a `size` result of `frames` frames as `format` fits the memory
    /// budget: the image the encoder reads (4 bytes a pixel) and the buffers it allocates
    /// itself (``encoderBytesPerPixel(_:)``), for every frame.
    ///
    /// - Returns: The bytes the encode takes.
    /// - Throws: ``ImageServerError`` 413 when the encode would take more memory than a
    ///   request may.
    @discardableResult
    func checkEncoding(_ size: PixelSize, frames: Int, as format: ImageFormat) throws(ImageServerError) -> Int {
        let bytesPerPixel = Double(4 + Self.encoderBytesPerPixel(format))
        let pixels = Double(size.width) * Double(size.height) * Double(max(frames, 1))
        guard pixels * bytesPerPixel <= Double(memoryBudget) else {
            throw ImageServerError(
                .contentTooLarge, "writing the result as \(format.rawValue) would take more memory than a request may",
                detail: "\(size.width)x\(size.height), \(frames) frames")
        }
        return Int(pixels * bytesPerPixel)
    }

    /// The bytes an encoder allocates for each pixel it writes, beyond the image it reads:
    /// peak resident memory of `webimage convert` on a 12 MP picture, less that of decoding
    /// it, per pixel, rounded up (measured with libjxl 0.7, libheif 1.15 with x265, libavif
    /// 0.11 with aom and libwebp 1.2; see the Security article).
    static func encoderBytesPerPixel(_ format: ImageFormat) -> Int {
        switch format {
        case .jxl: 40
        case .heic, .heif: 18
        case .avif: 16
        default: 8
        }
    }

    /// The largest canvas `transformer` works on, and the size it leaves, for an image of
    /// `size`.
    private static func step(_ transformer: any ImageTransformer, on size: PixelSize) throws(ImageServerError) -> (PixelSize, PixelSize) {
        switch transformer {
        case let resize as ResizingImageTransformer:
            let planned = resize.plan(for: size) ?? (size, size)
            // A covering resize is bounded by the source's shape, not by its box.
            if resize.contentMode == .outside, max(planned.scaled.width, planned.scaled.height) > TransformSpec.maximumDimension {
                throw ImageServerError(
                    .contentTooLarge, "the result would have a side over \(TransformSpec.maximumDimension) pixels",
                    detail: "\(resize.key) on \(size.width)x\(size.height)")
            }
            let scaledPixels = Double(planned.scaled.width) * Double(planned.scaled.height)
            let canvasPixels = Double(planned.canvas.width) * Double(planned.canvas.height)
            return (scaledPixels > canvasPixels ? planned.scaled : planned.canvas, planned.canvas)
        case let crop as CroppingImageTransformer:
            let (x, y): (Int, Int)
            switch crop.placement {
            case let .origin(originX, originY): (x, y) = (originX, originY)
            case let .gravity(gravity): (x, y) = gravity.origin(of: crop.size, in: size)
            case let .anchor(anchor): (x, y) = anchor.origin(of: crop.size, in: size)
            }
            let left = max(0, x), top = max(0, y)
            let right = min(size.width, x + crop.size.width), bottom = min(size.height, y + crop.size.height)
            guard right > left, bottom > top else {
                throw ImageServerError(
                    .unprocessableContent, "the crop leaves nothing of the source",
                    detail: "\(crop.key) on \(size.width)x\(size.height)")
            }
            let kept = PixelSize(width: right - left, height: bottom - top)
            return (size, kept)
        case let rotate as RotatingImageTransformer:
            let turned = rotated(size, by: rotate)
            return (turned, turned)
        case let pad as PaddingImageTransformer:
            let padded = pad.paddedSize(size)
            return (padded, padded)
        case let extend as ExtendingImageTransformer:
            let canvas = extend.canvas(for: size)
            return (canvas, canvas)
        case let overlay as OverlayImageTransformer:
            // A sized overlay is resampled to its size first; copies go on a canvas of the image's.
            let drawn = overlay.overlaySize(on: size)
            return (Double(drawn.width) * Double(drawn.height) > Double(size.width) * Double(size.height) ? drawn : size, size)
        case is CircleImageTransformer:
            let side = min(size.width, size.height)
            return (size, PixelSize(width: side, height: side))
        default:
            return (size, size)
        }
    }

    /// The size `rotate` leaves an image of `size` at.
    private static func rotated(_ size: PixelSize, by rotate: RotatingImageTransformer) -> PixelSize {
        guard rotate.fitsCanvas, rotate.degrees.isFinite else { return size }
        let radians = rotate.degrees * .pi / 180
        let cosine = abs(cos(radians)), sine = abs(sin(radians))
        let w = Double(size.width), h = Double(size.height)
        return PixelSize(
            width: max(1, Int(min((w * cosine + h * sine - 1e-6).rounded(.up), 1e12))),
            height: max(1, Int(min((w * sine + h * cosine - 1e-6).rounded(.up), 1e12))))
    }
}
