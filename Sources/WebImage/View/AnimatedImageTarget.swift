import Foundation

/// A target that plays the animated images it is given — SDWebImage's
/// `SDAnimatedImageView` with its `sd_setImageWithURL`, made a protocol.
///
/// A conforming class supplies ``WebImageTarget/display(_:)`` and an
/// ``animationPlayback``; ``setAnimatedImage(with:placeholder:options:progress:completed:)``
/// then loads with ``ImageOptions/decodeFramesOnDemand``, shows the poster at once and
/// hands each frame to `display` as an ``AnimatedImagePlayer`` plays it. Whatever the target
/// is given next — another image, the placeholder of the next load, `nil` — stops the
/// animation playing, and ``AnimationPlayback/isOnScreen`` stops it (freeing its buffer)
/// while the target is off screen. Loads run under ``WebImageTarget/imageOperationKey`` like
/// every other target's, so a new load cancels the one before.
///
/// With ``ImageOptions/progressiveDownload`` the target plays an animation while it
/// downloads: each partial image brings the frames received so far, and the player goes on
/// with them (``AnimatedImagePlayer/extend(with:)``) rather than starting again, holding
/// the last frame received until more arrive.
///
/// `display` is called from the player's clock thread while an animation plays: keep it
/// as quick, and as thread-safe, as ``WebImageTarget`` asks.
public protocol AnimatedImageTarget: WebImageTarget {
    /// The playback of this target; the same object every time.
    var animationPlayback: AnimationPlayback { get }
}

extension AnimatedImageTarget {
    /// Loads the image at `url` and plays it when it is animated; see
    /// ``WebImageTarget/setImage(with:placeholder:options:progress:completed:)`` for the
    /// placeholder, options and callbacks.
    @discardableResult
    public func setAnimatedImage(
        with url: URL?,
        placeholder: Image? = nil,
        options: ImageOptions = [],
        progress: ProgressHandler? = nil,
        completed: CompletionHandler? = nil
    ) -> ImageLoadOperation? {
        setAnimatedImage(
            with: ImageRequest(url: url, options: options),
            placeholder: placeholder,
            progress: progress,
            completed: completed
        )
    }

    /// Loads the image `request` describes and plays it when it is animated; the request
    /// carries the per-load settings (thumbnail size, callback queue…) and gains
    /// ``ImageOptions/decodeFramesOnDemand``. `operationKey` replaces the target's
    /// ``WebImageTarget/imageOperationKey``.
    @discardableResult
    public func setAnimatedImage(
        with request: ImageRequest,
        placeholder: Image? = nil,
        operationKey: String? = nil,
        progress: ProgressHandler? = nil,
        completed: CompletionHandler? = nil
    ) -> ImageLoadOperation? {
        var request = request
        request.options.insert(.decodeFramesOnDemand)
        return loadImage(
            request,
            placeholder: placeholder,
            operationKey: operationKey ?? imageOperationKey,
            display: { [weak self] image in self?.play(image) },
            progress: progress,
            completed: completed
        )
    }

    /// Shows `image`, playing it when it is animated (decoded frame by frame or whole); the
    /// animation playing before stops — unless `image` stands for a longer version of it
    /// (`AnimatedImage.continues(_:)`, the next partial image of a progressive load, or
    /// its final one), which the player then goes on with, without starting again.
    public func play(_ image: Image?) {
        let playback = animationPlayback
        if let longer = image?.animation, let player = playback.player, longer.continues(player.animation) {
            player.extend(with: longer)
            return
        }
        // The old animation stops before anything else shows: a frame it decoded meanwhile
        // is dropped (see `AnimationPlayback.deliver(from:_:)`), never shown over `image`.
        playback.replacePlayer(with: nil)
        display(image)
        guard let image, image.isAnimated else { return }
        let animation = image.animation ?? AnimatedImage(image)
        let player = AnimatedImagePlayer(
            animation,
            clock: playback.clock,
            maxBufferSize: playback.bufferLimit(for: animation),
            frameTransformer: playback.frameTransformer,
            frameBudget: playback.frameBudget
        )
        player.onFrameChange = { [weak self, weak player] _, frame in
            guard let player else { return }
            playback.deliver(from: player) {
                self?.display(Image(bitmap: frame.bitmap, scale: image.scale, format: image.format))
            }
        }
        playback.replacePlayer(with: player)
    }
}
