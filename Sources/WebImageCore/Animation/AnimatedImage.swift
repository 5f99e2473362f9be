import Foundation
import NIOConcurrencyHelpers

/// An animation kept as its encoded bytes, whose frames are decoded when asked for — in
/// any order — instead of all at once: SDWebImage's `SDAnimatedImage`.
///
/// Creating one reads the file's structure (frame count, durations, loop count) and
/// decodes only the first frame, the ``poster``. ``frame(at:)`` decodes any other frame on
/// demand; an `AnimatedImagePlayer` (in `WebImage`) keeps a bounded buffer of the
/// frames about to show. So a 200-frame 500×500 GIF costs its file plus one frame here,
/// not the 200 MB of every frame decoded.
///
/// Frames are decoded by one ``AnimatedFrameDecoder`` under a lock: in order they cost one
/// frame each; out of order they cost the frames from the nearest earlier key frame (see
/// ``AnimatedFrameDecoder``). Every frame comes out at ``frameSize``, composed onto the
/// whole canvas, with the same pixels the coder's full decode gives.
///
/// Made from the bytes of a file still downloading
/// (``init(partialData:coder:options:)``), it holds the frames received so far and is not
/// ``isComplete``: progressive animation, where each longer prefix ``continues(_:)`` the one
/// before.
public final class AnimatedImage: Sendable {
    /// The encoded file; `nil` for an animation made from frames already decoded.
    public let data: Data?
    /// The format the frames are decoded from.
    public let format: ImageFormat
    /// Seconds each frame shows, in order; its count is ``frameCount``.
    public let frameDurations: [Double]
    /// How many times the animation plays; 0 means forever. While the animation is not
    /// ``isComplete`` this is what the bytes received so far declare, not a final answer.
    public let loopCount: Int
    /// Whether every frame is here: `false` for an animation made from the bytes received
    /// so far of a file still downloading (``init(partialData:coder:options:)``), whose
    /// ``frameCount`` and ``duration`` then cover only the frames that have arrived.
    public let isComplete: Bool
    /// The size of the canvas the file declares.
    public let canvasSize: PixelSize
    /// The size every frame comes out at: the canvas, or the thumbnail size the decode
    /// options asked for.
    public let frameSize: PixelSize
    /// Pixels per point.
    public let scale: Double
    /// The first frame, decoded when the animation was created.
    public let poster: ImageFrame
    /// The coder that reads the frames (SDWebImage's `animatedCoder`): the one given when
    /// the animation was made, so every partial animation of a progressive load and the
    /// final one name the same coder; `nil` for an animation made from decoded frames.
    public let coder: (any AnimatedImageCoder)?

    private let decoding: NIOLockedValueBox<FrameDecoding>

    /// Reads the animation in `data` with `coder` and decodes its first frame.
    ///
    /// `options` give the frame size (``ImageDecodeOptions/thumbnailPixelSize``), the scale
    /// and the limits: the canvas and a frame must fit ``ImageDecodeOptions/maxPixelCount``,
    /// the frame count ``ImageDecodeOptions/maxFrameCount``. The work of all frames is not
    /// limited, since frames are decoded only as they are asked for.
    ///
    /// - Throws: ``ImageError/Code/unsupportedFormat`` when `coder` cannot decode `data`
    ///   frame by frame (a still image, or a coder without a frame decoder),
    ///   ``ImageError/Code/badImageData`` for corrupt data, ``ImageError/Code/imageTooLarge``
    ///   past the limits.
    public convenience init(data: Data, coder: any AnimatedImageCoder, options: ImageDecodeOptions = ImageDecodeOptions()) throws(ImageError) {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        let info = try coder.animationInfo(of: data)
        try self.init(
            prefix: AnimationPrefix(info: info, bytes: PinnedBytes(data), isComplete: true),
            format: ImageFormat(sniffing: data), coder: coder, options: options
        )
    }

    /// The frames that have wholly arrived in `data`, the start of an animated file still
    /// downloading — progressive animation, as SDWebImage's animated coders made with
    /// incremental data. ``isComplete`` tells whether `data` held the whole animation;
    /// until it does, ``frameCount`` counts only the complete frames and more may follow.
    /// An animation made from a longer prefix of the same file has the same first frames,
    /// pixel for pixel, and continues this one (``continues(_:)``).
    ///
    /// Limits and errors are those of ``init(data:coder:options:)``.
    ///
    /// - Returns: `nil` when `data` holds no complete frame yet, holds a still image, or
    ///   when `coder` cannot read partial animations.
    public convenience init?(
        partialData data: Data,
        coder: any AnimatedImageCoder,
        options: ImageDecodeOptions = ImageDecodeOptions()
    ) throws(ImageError) {
        guard !data.isEmpty, let prefix = try coder.animationPrefix(of: data), prefix.info.frameCount > 0 else { return nil }
        try self.init(prefix: prefix, format: ImageFormat(sniffing: data), coder: coder, options: options)
    }

    private init(prefix: AnimationPrefix, format: ImageFormat, coder: any AnimatedImageCoder, options: ImageDecodeOptions) throws(ImageError) {
        let info = prefix.info
        guard info.frameCount <= options.maxFrameCount else {
            throw ImageError(.imageTooLarge, "the animation has more than the limit of \(options.maxFrameCount) frames")
        }
        try options.checkAllocation(info.canvasSize)
        guard let decoder = try coder.makeFrameDecoder(for: prefix.bytes) else {
            throw ImageError(.unsupportedFormat, "the coder cannot decode this image frame by frame")
        }
        let size = options.targetSize(forSource: info.canvasSize)
        let first = try decoder.decodeNextFrame()
        data = prefix.bytes.data
        self.format = format
        frameDurations = info.frameDurations
        loopCount = info.loopCount
        isComplete = prefix.isComplete
        canvasSize = info.canvasSize
        frameSize = size
        scale = options.scaleFactor ?? 1
        poster = ImageFrame(bitmap: try AnimatedImage.sized(first, to: size), duration: info.frameDurations[0])
        self.coder = coder
        decoding = NIOLockedValueBox(FrameDecoding(decoder: decoder))
    }

    /// An animation over the frames of `image`, already decoded: for playing an image that
    /// was decoded whole. It costs nothing more than `image`.
    public init(_ image: Image) {
        data = nil
        format = image.format
        frameDurations = image.frames.map(\.duration)
        loopCount = image.loopCount
        isComplete = true
        canvasSize = image.pixelSize
        frameSize = image.pixelSize
        scale = image.scale
        poster = image.frames[0]
        coder = nil
        decoding = NIOLockedValueBox(FrameDecoding(decoder: DecodedFramesDecoder(frames: image.frames.map(\.bitmap))))
    }

    /// The number of frames.
    public var frameCount: Int { frameDurations.count }

    /// Seconds one pass of the animation takes.
    public var duration: Double { frameDurations.reduce(0, +) }

    /// Bytes one decoded frame takes.
    public var frameByteCount: Int { poster.bitmap.byteCount }

    /// What the animation costs a memory cache: its encoded bytes and its poster, and every
    /// frame while they are preloaded (``preloadAllFrames()``). The frames a player buffers
    /// are the player's.
    public var memoryCost: Int {
        (data?.count ?? 0) + frameByteCount * (decoding.withLockedValue { $0.preloaded != nil } ? frameCount : 1)
    }

    /// Whether every frame is decoded and kept (``preloadAllFrames()``), so that
    /// ``frame(at:)`` decodes nothing (SDWebImage's `isAllFramesLoaded`).
    public var isAllFramesLoaded: Bool {
        decoding.withLockedValue { $0.preloaded != nil }
    }

    /// Decodes every frame now, in order, and keeps them until ``unloadAllFrames()``
    /// (SDWebImage's `preloadAllFrames`): playing then decodes nothing, for the memory of
    /// every frame (see ``memoryCost``). Blocks while it decodes, holding the lock
    /// ``frame(at:)`` takes: call it from a decoding thread, not the cooperative pool.
    /// Does nothing when the frames are already loaded.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when a frame's data is corrupt or
    ///   missing; nothing is kept then.
    public func preloadAllFrames() throws(ImageError) {
        let outcome = decoding.withLockedValue { state in
            Result { () throws(ImageError) in
                guard state.preloaded == nil else { return }
                state.decoder.rewind(toKeyFrameAtOrBefore: 0)
                var frames = [poster.bitmap]
                frames.reserveCapacity(frameCount)
                _ = try state.decoder.decodeNextFrame()
                while frames.count < frameCount {
                    frames.append(try AnimatedImage.sized(state.decoder.decodeNextFrame(), to: frameSize))
                }
                state.preloaded = frames
            }
        }
        try outcome.get()
    }

    /// Drops the frames ``preloadAllFrames()`` kept; frames are decoded on demand again.
    public func unloadAllFrames() {
        decoding.withLockedValue { $0.preloaded = nil }
    }

    /// Decodes frame `index` (any index, in any order); frame 0 is the ``poster`` and costs
    /// nothing. Blocks while it decodes: call it from a decoding thread, not the cooperative
    /// pool.
    ///
    /// - Precondition: `index` is in `0..<frameCount`.
    /// - Throws: ``ImageError/Code/badImageData`` when the frame's data (or that of a frame
    ///   it is composed over) is corrupt or missing.
    public func frame(at index: Int) throws(ImageError) -> ImageFrame {
        precondition(index >= 0 && index < frameCount, "frame \(index) is outside 0..<\(frameCount)")
        if index == 0 { return poster }
        let outcome = decoding.withLockedValue { state in
            Result { () throws(ImageError) -> Bitmap in
                if let preloaded = state.preloaded { return preloaded[index] }
                let decoder = state.decoder
                decoder.rewind(toKeyFrameAtOrBefore: index)
                while decoder.nextFrameIndex < index {
                    _ = try decoder.decodeNextFrame()
                }
                return try decoder.decodeNextFrame()
            }
        }
        let bitmap = try outcome.get()
        return ImageFrame(bitmap: try AnimatedImage.sized(bitmap, to: frameSize), duration: frameDurations[index])
    }

    /// Whether this animation is `earlier` with more of its frames: `earlier` was
    /// incomplete, and this one has the same format, canvas, frame size and first frame,
    /// and begins with `earlier`'s frames and durations. A player shown `earlier` can take
    /// this one without restarting (`AnimatedImagePlayer` in `WebImage`).
    public func continues(_ earlier: AnimatedImage) -> Bool {
        !earlier.isComplete && format == earlier.format && canvasSize == earlier.canvasSize
            && frameSize == earlier.frameSize && frameCount >= earlier.frameCount
            && frameDurations.starts(with: earlier.frameDurations)
            && poster.bitmap == earlier.poster.bitmap
    }

    private static func sized(_ bitmap: Bitmap, to size: PixelSize) throws(ImageError) -> Bitmap {
        bitmap.size == size ? bitmap : try bitmap.resized(to: size)
    }
}

/// The frame decoder, touched only under the animation's lock.
private struct FrameDecoding: @unchecked Sendable {
    let decoder: any AnimatedFrameDecoder
    /// Every frame, at the frame size, between ``AnimatedImage/preloadAllFrames()`` and
    /// ``AnimatedImage/unloadAllFrames()``.
    var preloaded: [Bitmap]?
}
