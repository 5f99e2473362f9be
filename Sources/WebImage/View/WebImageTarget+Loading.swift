import Foundation
import NIOConcurrencyHelpers

extension WebImageTarget {
    /// Called with the bytes received so far and the expected total (-1 when unknown).
    public typealias ProgressHandler = @Sendable (_ received: Int64, _ expected: Int64) -> Void
    /// Called with the load's answer: its image (or error), where it came from and its URL.
    public typealias CompletionHandler = @Sendable (ImageResponse) -> Void

    /// The URL of the main image last asked for.
    public var imageURL: URL? {
        imageOperations.url(forKey: imageOperationKey)
    }

    /// Loads the image at `url` into the target, showing `placeholder` until it arrives.
    ///
    /// A `nil` or empty URL shows the placeholder and completes with
    /// `ImageError.Code.invalidURL`. ``ImageOptions/delayPlaceholder`` shows the
    /// placeholder only if the load ends without an image; ``ImageOptions/avoidAutoSetImage``
    /// leaves the target alone and hands the image (partial ones included) to `completed`.
    /// Progressive partial images are shown as they arrive; `completed` runs exactly once,
    /// when the load is finished. A cancelled load — by ``cancelCurrentImageLoad()``, by its
    /// operation, by the manager's `cancelAll()`, or replaced by another load under the same
    /// key — completes with `ImageError.Code.cancelled` at once, on the cancelling thread,
    /// before `cancel()` returns (as SDWebImage answers a main-thread cancel inline); one
    /// cancelled while it was the target's current load also stops the indicator and shows
    /// the delayed placeholder, before any following load under its key starts, while a
    /// replaced one leaves the target to the load that replaced it.
    ///
    /// - Returns: The load, or `nil` when there was nothing to load.
    @discardableResult
    public func setImage(
        with url: URL?,
        placeholder: Image? = nil,
        options: ImageOptions = [],
        progress: ProgressHandler? = nil,
        completed: CompletionHandler? = nil
    ) -> ImageLoadOperation? {
        setImage(with: ImageRequest(url: url, options: options), placeholder: placeholder, progress: progress, completed: completed)
    }

    /// Loads the image `request` describes into the target; see
    /// ``setImage(with:placeholder:options:progress:completed:)``. The request carries the
    /// per-load settings (thumbnail size, transformer, callback queue…); `operationKey`
    /// replaces the target's ``imageOperationKey``.
    @discardableResult
    public func setImage(
        with request: ImageRequest,
        placeholder: Image? = nil,
        operationKey: String? = nil,
        progress: ProgressHandler? = nil,
        completed: CompletionHandler? = nil
    ) -> ImageLoadOperation? {
        loadImage(
            request,
            placeholder: placeholder,
            operationKey: operationKey ?? imageOperationKey,
            display: { [weak self] image in self?.display(image) },
            progress: progress,
            completed: completed
        )
    }

    /// Loads the image at `url`, showing as placeholder the image already cached for it
    /// (memory, else disk; memory only when the manager's cache is not an ``ImageCache``) or,
    /// when there is none, `placeholder`.
    @discardableResult
    public func setImageWithPreviousCachedImage(
        with url: URL?,
        placeholder: Image? = nil,
        options: ImageOptions = [],
        progress: ProgressHandler? = nil,
        completed: CompletionHandler? = nil
    ) -> ImageLoadOperation? {
        let request = ImageRequest(url: url, options: options)
        var cached: Image?
        if url != nil {
            let key = imageManager.cacheKey(for: request)
            if let imageCache = imageManager.imageCache {
                cached = imageCache.imageFromMemory(forKey: key) ?? imageCache.imageFromDisk(forKey: key)
            } else {
                cached = imageManager.cache.memoryResult(forKey: key, decodeOptions: nil)?.image
            }
        }
        return setImage(with: request, placeholder: cached ?? placeholder, progress: progress, completed: completed)
    }

    /// Cancels the load of the main image and stops the indicator; the load completes with
    /// `ImageError.Code.cancelled` (and shows its placeholder if it delayed it).
    public func cancelCurrentImageLoad() {
        if imageOperations.cancelOperation(forKey: imageOperationKey) {
            imageIndicator?.stopAnimating()
        }
    }

    /// The engine behind every `setImage` form (SDWebImage's `sd_internalSetImageWithURL`):
    /// cancels the load under `operationKey`, shows the placeholder, starts the indicator,
    /// loads through ``imageManager`` and hands images to `display`.
    ///
    /// Variants (highlighted images, button states) call it with their own key and their own
    /// `display`.
    @discardableResult
    public func loadImage(
        _ request: ImageRequest,
        placeholder: Image?,
        operationKey: String,
        display: @escaping @Sendable (Image?) -> Void,
        progress: ProgressHandler? = nil,
        completed: CompletionHandler? = nil
    ) -> ImageLoadOperation? {
        let store = imageOperations
        let generation = store.beginLoad(
            of: request.url, forKey: operationKey, cancellingPrevious: !request.options.contains(.avoidAutoCancelImage))
        let options = request.options
        let indicator = imageIndicator
        if !options.contains(.delayPlaceholder) {
            display(placeholder)
        }
        guard let url = request.url, !url.absoluteString.isEmpty else {
            indicator?.stopAnimating()
            if options.contains(.delayPlaceholder) {
                display(placeholder)
            }
            let response = ImageResponse(error: ImageError(.invalidURL, "the image URL is missing or empty"), url: request.url)
            if let completed {
                (request.callbackQueue ?? imageManager.callbackQueue).async {
                    completed(response)
                }
            }
            return nil
        }
        indicator?.startAnimating()
        // The final answer comes once: from the manager, or, for a cancelled load, from the
        // cancelling thread before `cancel()` returns (the manager's later one is dropped).
        let answered = NIOLockedValueBox(false)
        let respond: @Sendable (ImageResponse) -> Void = { response in
            let isLate = answered.withLockedValue { answered -> Bool in
                defer { if response.isFinished { answered = true } }
                return answered
            }
            guard !isLate else { return }
            // A replaced load still answers its caller, but leaves the target alone.
            guard store.isCurrent(generation, forKey: operationKey) else {
                if response.isFinished { completed?(response) }
                return
            }
            let avoidsAutoSet = options.contains(.avoidAutoSetImage)
            if response.isFinished {
                indicator?.stopAnimating()
            }
            if let image = response.image {
                if !avoidsAutoSet { display(image) }
            } else if response.isFinished, options.contains(.delayPlaceholder) {
                display(placeholder)
            }
            if response.isFinished || avoidsAutoSet {
                completed?(response)
            }
        }
        var keyedRequest = request
        keyedRequest.operationKey = operationKey
        let operation = imageManager.loadImage(
            with: keyedRequest,
            progress: { received, expected in
                guard store.isCurrent(generation, forKey: operationKey) else { return }
                if expected > 0 {
                    indicator?.updateProgress(Double(received) / Double(expected))
                }
                progress?(received, expected)
            },
            completion: respond
        )
        operation.onCancel { [url = request.url] in
            respond(ImageResponse(error: ImageError(.cancelled, "the image load was cancelled"), url: url))
        }
        store.setOperation(operation, forKey: operationKey, generation: generation)
        return operation
    }
}
