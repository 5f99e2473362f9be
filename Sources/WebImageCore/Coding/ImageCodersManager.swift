import Foundation
import NIOConcurrencyHelpers

/// The registry of coders that every decode and encode in the library goes through.
///
/// `WebImage` gives it a shared instance that starts with the built-in JPEG, PNG (with
/// APNG), GIF, WebP, BMP and ICO coders, and TIFF with the `TIFF` package trait. ``addCoder(_:)`` puts a coder in front of the others, so a
/// later-added coder wins for the data it accepts.
public final class ImageCodersManager: Sendable {
    private let registered: NIOLockedValueBox<[any ImageCoder]>

    /// Creates a manager with `coders`, the last one having the highest priority.
    public init(coders: [any ImageCoder]) {
        registered = NIOLockedValueBox(coders)
    }

    /// The registered coders, from lowest to highest priority.
    public var coders: [any ImageCoder] {
        registered.withLockedValue { $0 }
    }

    /// Adds `coder` with the highest priority.
    public func addCoder(_ coder: any ImageCoder) {
        registered.withLockedValue { $0.append(coder) }
    }

    /// Removes every coder of type `type`.
    public func removeCoders<Coder: ImageCoder>(ofType type: Coder.Type) {
        registered.withLockedValue { coders in coders.removeAll { $0 is Coder } }
    }

    /// Decodes `data` with the highest-priority coder that accepts it.
    ///
    /// - Throws: ``ImageError/Code/emptyData`` for no bytes,
    ///   ``ImageError/Code/unsupportedFormat`` when no coder accepts the data, or the
    ///   coder's own error.
    public func decode(_ data: Data, options: ImageDecodeOptions = ImageDecodeOptions()) throws(ImageError) -> Image {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        guard let coder = coders.last(where: { $0.canDecode(data) }) else {
            throw unsupported(data)
        }
        if options.decodesFramesOnDemand, !options.firstFrameOnly, let animated = coder as? any AnimatedImageCoder,
            let animation = try? AnimatedImage(data: data, coder: animated, options: options), animation.frameCount > 1
        {
            return Image(animation: animation)
        }
        return try coder.decode(data, options: options)
    }

    /// The animation in `data`, read by the highest-priority animated coder that accepts it,
    /// with its frames left to decode on demand (see ``AnimatedImage``).
    ///
    /// - Throws: ``ImageError/Code/unsupportedFormat`` when no coder decodes `data` frame by
    ///   frame, or the errors of ``AnimatedImage/init(data:coder:options:)``.
    public func animatedImage(from data: Data, options: ImageDecodeOptions = ImageDecodeOptions()) throws(ImageError) -> AnimatedImage {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        let animated = coders.last { coder in coder is any AnimatedImageCoder && coder.canDecode(data) }
        guard let coder = animated as? any AnimatedImageCoder else { throw unsupported(data) }
        return try AnimatedImage(data: data, coder: coder, options: options)
    }

    /// Checks `data` cheaply, without decoding pixels: some coder accepts it, and its header
    /// (where that coder reads headers, see ``ImageCoder/pixelSize(of:)``) declares a size
    /// within `options`' ``ImageDecodeOptions/maxPixelCount``.
    ///
    /// - Returns: The size the header declares, or `nil` when the coder cannot tell.
    /// - Throws: ``ImageError/Code/emptyData``, ``ImageError/Code/unsupportedFormat`` or
    ///   ``ImageError/Code/badImageData`` as ``decode(_:options:)`` would, and
    ///   ``ImageError/Code/imageTooLarge`` for a declared size past the limit.
    @discardableResult
    public func checkHeader(of data: Data, options: ImageDecodeOptions = ImageDecodeOptions()) throws(ImageError) -> PixelSize? {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to check") }
        guard let coder = coders.last(where: { $0.canDecode(data) }) else {
            throw unsupported(data)
        }
        guard let size = try coder.pixelSize(of: data) else { return nil }
        guard size.width > 0, size.height > 0 else {
            throw ImageError(.badImageData, "the header declares an empty \(size.width)×\(size.height) image")
        }
        guard let count = size.pixelCount, count <= options.maxPixelCount else {
            throw ImageError(.imageTooLarge, "the header declares \(size.width)×\(size.height) pixels, over the limit of \(options.maxPixelCount)")
        }
        return size
    }

    /// Decodes the bytes received so far into a partial image, when a progressive coder
    /// accepts them; `nil` when none does or the bytes show nothing yet.
    ///
    /// With ``ImageDecodeOptions/decodesFramesOnDemand`` (and not
    /// ``ImageDecodeOptions/firstFrameOnly``), an animation whose coder reads partial
    /// animations comes out as an image standing for an incomplete ``AnimatedImage`` of the
    /// frames received so far (progressive animation; see
    /// ``AnimatedImage/init(partialData:coder:options:)``), so each call on more bytes gives
    /// more frames; once the bytes hold the whole animation but `isComplete` is `false`,
    /// `nil`, leaving the complete animation to the final decode.
    public func decodeIncrementally(
        _ data: Data,
        isComplete: Bool,
        options: ImageDecodeOptions = ImageDecodeOptions()
    ) throws(ImageError) -> Image? {
        guard !data.isEmpty else { return nil }
        if options.decodesFramesOnDemand, !options.firstFrameOnly, let animation = partialAnimation(in: data, options: options) {
            // Every frame arrived before the download ended: the final answer, whole, follows.
            return animation.isComplete && !isComplete ? nil : Image(animation: animation)
        }
        let progressive = coders.last { coder in
            (coder as? any ProgressiveImageCoder)?.canDecodeIncrementally(data) ?? false
        }
        guard let coder = progressive as? any ProgressiveImageCoder else { return nil }
        return try coder.decodeIncrementally(data, isComplete: isComplete, options: options)
    }

    /// The frames received so far of the animation in `data`, when an animated coder accepts
    /// it and reads partial animations; `nil` for a still image, for bytes that hold no
    /// complete frame yet, and for bytes it cannot read, which the still coders then try.
    private func partialAnimation(in data: Data, options: ImageDecodeOptions) -> AnimatedImage? {
        let animated = coders.last { coder in coder is any AnimatedImageCoder && coder.canDecode(data) }
        guard let coder = animated as? any AnimatedImageCoder,
            let animation = try? AnimatedImage(partialData: data, coder: coder, options: options),
            animation.frameCount > 1 || !animation.isComplete
        else { return nil }
        return animation
    }

    /// Reads an animation's structure without decoding pixels.
    ///
    /// - Throws: ``ImageError/Code/unsupportedFormat`` when no animated coder accepts the data.
    public func animationInfo(of data: Data) throws(ImageError) -> AnimationInfo {
        let animated = coders.last { coder in coder is any AnimatedImageCoder && coder.canDecode(data) }
        guard let coder = animated as? any AnimatedImageCoder else { throw unsupported(data) }
        return try coder.animationInfo(of: data)
    }

    /// Encodes `image` as `format`, or, when `format` is `nil`, as the format that suits it:
    /// an animation as its own format when that can hold animation (else GIF), an image with
    /// alpha as PNG, anything else as JPEG. The coder applies the options' size limit and
    /// background (see ``ImageEncodeOptions/prepared(_:for:)``).
    public func encode(
        _ image: Image,
        as format: ImageFormat? = nil,
        options: ImageEncodeOptions = ImageEncodeOptions()
    ) throws(ImageError) -> Data {
        let target = format ?? preferredFormat(for: image)
        guard let coder = coders.last(where: { $0.canEncode(to: target) }) else {
            throw ImageError(.unsupportedFormat, "no coder can encode \(target.rawValue)")
        }
        guard let limit = options.maxFileSize else {
            return try coder.encode(image, as: target, options: options)
        }
        // Prepared once here, not on each try of the bisection.
        return try encode(
            options.prepared(image, for: target), as: target, with: coder, options: options.withoutPreparation,
            fittingIn: limit)
    }

    /// The output at the highest quality (up to the options' own) that fits in `limit`
    /// bytes, found by bisection over whole percentages; a lossless format must fit as is.
    private func encode(
        _ image: Image, as format: ImageFormat, with coder: any ImageCoder, options: ImageEncodeOptions,
        fittingIn limit: Int
    ) throws(ImageError) -> Data {
        var options = options
        guard options.isLossy(format) else {
            let data = try coder.encode(image, as: format, options: options)
            guard data.count <= limit else {
                throw ImageError(.encodingFailed, "\(format.rawValue) needs \(data.count) bytes, over the limit of \(limit)")
            }
            return data
        }
        var low = 1, high = Int((options.quality * 100).rounded())
        var best: Data?
        while low <= high {
            let middle = (low + high) / 2
            options.quality = Double(middle) / 100
            try options.cancellation?.check(before: "the \(format.rawValue) encode at quality \(middle)")
            let data = try coder.encode(image, as: format, options: options)
            if data.count <= limit {
                best = data
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        guard let best else {
            throw ImageError(.encodingFailed, "\(format.rawValue) at the lowest quality is over the limit of \(limit) bytes")
        }
        return best
    }

    /// The format ``encode(_:as:options:)`` picks when none is given.
    public func preferredFormat(for image: Image) -> ImageFormat {
        if image.isAnimated {
            let animatedFormats: Set<ImageFormat> = [.gif, .png, .webp]
            return animatedFormats.contains(image.format) && canEncode(to: image.format) ? image.format : .gif
        }
        return image.hasAlpha ? .png : .jpeg
    }

    /// The formats some registered coder decodes or encodes, in ``ImageFormat`` order.
    public var supportedFormats: [ImageFormatSupport] {
        let coders = self.coders
        return ImageFormat.allCases.compactMap { format in
            let decodes = coders.contains { $0.decodableFormats.contains(format) }
            let encodes = coders.contains { $0.canEncode(to: format) }
            return decodes || encodes ? ImageFormatSupport(format: format, decodes: decodes, encodes: encodes) : nil
        }
    }

    /// The formats some registered coder decodes, in ``ImageFormat`` order.
    public var decodableFormats: [ImageFormat] {
        supportedFormats.filter(\.decodes).map(\.format)
    }

    /// An HTTP `Accept` value naming the media types of ``decodableFormats``, then
    /// `*/*;q=0.8`, so a server that negotiates sends only what can be decoded.
    public var acceptHeaderValue: String {
        (decodableFormats.compactMap(\.mimeType) + ["*/*;q=0.8"]).joined(separator: ",")
    }

    /// Whether any registered coder writes `format`.
    public func canEncode(to format: ImageFormat) -> Bool {
        coders.contains { $0.canEncode(to: format) }
    }

    private func unsupported(_ data: Data) -> ImageError {
        let format = ImageFormat(sniffing: data)
        if format == .undefined {
            return ImageError(.badImageData, "the data is not an image in any known format")
        }
        return ImageError(.unsupportedFormat, "\(format.rawValue) images are recognised but not decoded")
    }
}
