import Foundation

extension ImageManager {
    /// Loads the image `request` asks for. Cancelling the calling task cancels the load.
    ///
    /// Returns the final answer: for ``ImageOptions/refreshCached`` the new image when the
    /// server sent a changed one, otherwise the cached one. A load that ends without an
    /// image and without an error (the ``shouldDownload`` hook said no) returns a response
    /// whose image is `nil`.
    ///
    /// - Throws: the load's ``ImageError``; ``ImageError/Code/cancelled`` when the task is cancelled.
    public func image(for request: ImageRequest) async throws(ImageError) -> ImageResponse {
        let cachedAnswer = LastResponse()
        let final = await run(request) { event in
            if case let .response(response) = event { cachedAnswer.set(response) }
        }
        if Task.isCancelled { throw ImageError(.cancelled, "the image load was cancelled") }
        guard let response = final ?? cachedAnswer.value else {
            throw ImageError(.cancelled, "the image load ended without an answer")
        }
        if let error = response.error { throw error }
        return response
    }

    /// Loads the image at `url`; see ``image(for:)``.
    public func image(from url: URL, options: ImageOptions = []) async throws(ImageError) -> ImageResponse {
        try await image(for: ImageRequest(url: url, options: options))
    }

    /// The load of `request` as a stream of progress, partial images and answers; the
    /// stream ends after the last answer, and stopping to read it cancels the load.
    public func events(for request: ImageRequest) -> AsyncStream<ImageLoadEvent> {
        AsyncStream { continuation in
            let task = Task {
                if let final = await self.run(request, emit: { continuation.yield($0) }) {
                    continuation.yield(.response(final))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
