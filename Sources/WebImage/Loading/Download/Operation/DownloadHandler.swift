import Dispatch

/// One caller attached to a ``DownloadOperation``: its request and where its callbacks run.
struct DownloadHandler: Sendable {
    let request: ImageLoadRequest
    /// A serial queue for this caller's callbacks, or `nil` to call them in place.
    let queue: DispatchQueue?
    let completion: @Sendable (Result<ImageLoadResult, ImageError>) -> Void
    /// This caller's priority: its request's at first, then what its token set.
    var priority: DownloadPriority

    init(request: ImageLoadRequest, queue: DispatchQueue?, completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void) {
        self.request = request
        self.queue = queue
        self.completion = completion
        priority = request.options.priority
    }

    var wantsPartialImages: Bool {
        request.partialImage != nil && request.options.contains(.progressiveDownload)
    }

    func deliver(_ work: @escaping @Sendable () -> Void) {
        if let queue {
            queue.async(execute: work)
        } else {
            work()
        }
    }

    func complete(with result: Result<ImageLoadResult, ImageError>) {
        guard let queue else {
            // In place: no closure to allocate.
            completion(result)
            return
        }
        let completion = completion
        queue.async { completion(result) }
    }

    func reportProgress(received: Int64, expected: Int64) {
        guard let progress = request.progress else { return }
        deliver { progress(received, expected) }
    }

    func deliverPartial(_ image: Image) {
        guard let partialImage = request.partialImage else { return }
        deliver { partialImage(image) }
    }
}
