import Foundation

extension ImageManager {
    /// Loads the image `request` asks for. Cancelling the calling task cancels the load.
    ///
    /// Returns the final answer: for ``ImageOptions/refreshCached`` the new image when the
    /// server sent a changed one, otherwise the cached one. A load that ends without an
    /// image and without an error (the ``shouldDownload`` hook said no) returns a response
    /// whose image is `nil`.
    ///
    /// - Throws: the load's `ImageError`; `ImageError.Code.cancelled` when the task is cancelled.
    public func image(for request: ImageRequest) async throws(ImageError) -> ImageResponse {
        let request = processed(request)
        // A fresh memory hit answers without the engine's suspensions, as `loadImage` does.
        if !Task.isCancelled, let hit = synchronousMemoryHit(for: request) {
            return hit
        }
        return try await load(request)
    }

    /// Loads the image at `url`; see ``image(for:)``.
    public func image(from url: URL, options: ImageOptions = []) async throws(ImageError) -> ImageResponse {
        if let imageCache = cacheAnsweringPlainURLs {
            if !Task.isCancelled, let hit = synchronousMemoryHit(for: url, options: options, in: imageCache) {
                return hit
            }
            return try await load(ImageRequest(url: url, options: options))
        }
        return try await image(for: ImageRequest(url: url, options: options))
    }

    /// ``image(for:)`` for a processed request whose memory hit was already looked for.
    private func load(_ request: ImageRequest) async throws(ImageError) -> ImageResponse {
        let cachedAnswer = LastResponse()
        let outcome = await run(request) { event in
            if case let .response(response) = event { cachedAnswer.set(response) }
        }
        if Task.isCancelled { throw ImageError(.cancelled, "the image load was cancelled") }
        switch outcome {
        case .failed(let error):
            throw error
        case .cancelled:
            throw ImageError(.cancelled, "the image load was cancelled")
        case .notModified:
            guard let cached = cachedAnswer.value else {
                throw ImageError(.cancelled, "the image load ended without an answer")
            }
            return cached
        case let .image(image, data, cacheType, metrics):
            return ImageResponse(image: image, data: data, cacheType: cacheType, url: request.url, downloadMetrics: metrics)
        case .declined:
            return ImageResponse(url: request.url)
        }
    }

    /// The load of `request` as a stream of progress, partial images and answers; the
    /// stream ends after the last answer, and stopping to read it cancels the load.
    public func events(for request: ImageRequest) -> AsyncStream<ImageLoadEvent> {
        let request = processed(request)
        let handOver = LoadEventHandOver()
        let task = Task {
            let outcome = await self.run(request, emit: { handOver.send($0) })
            if let final = outcome.response(for: request.url) {
                handOver.send(.response(final))
            }
            handOver.finish()
        }
        let reader = LoadEventReader(handOver: handOver, load: task)
        return AsyncStream(unfolding: { await reader.next() }, onCancel: { task.cancel() })
    }
}
