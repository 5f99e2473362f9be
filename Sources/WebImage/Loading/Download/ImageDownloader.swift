import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// Downloads images over HTTP(S): one transfer per URL however many callers ask, queued by
/// priority under a concurrency limit, streamed, and decoded off the event loops
/// (SDWebImage's `SDWebImageDownloader`).
///
/// ```swift
/// let result = try await ImageDownloader.shared.image(from: url)
/// ```
///
/// The callback API (``downloadImage(with:callbackQueue:completion:)``) returns a
/// ``DownloadToken`` per caller. Instances other than ``shared`` own an HTTP client and
/// must be shut down with ``shutdown()`` when no longer needed.
public final class ImageDownloader: Sendable {
    private struct State {
        var operations: [DownloadKey: DownloadOperation] = [:]
        var queue: DownloadQueue
        /// Transfers under way.
        var running = 0
        /// Operations whose transfer has ended and which are decoding or delivering.
        var decoding = 0
        var maxConcurrentDownloads: Int
        var isSuspended = false
        var headers: HTTPHeaders
        /// The task that stops silent transfers; it runs while any transfer does.
        var idleWatch: Task<Void, Never>?
        /// The starts left under ``ImageDownloaderConfiguration/rateLimit``.
        var rateBucket: TokenBucket?
        /// The timer that starts queued downloads when the next token comes.
        var rateTimer: Scheduled<Void>?

        /// Whether a queued download may start: a transfer slot is free, and the
        /// operations still decoding hold no more than as many bodies again.
        var hasFreeSlot: Bool {
            !isSuspended && running < maxConcurrentDownloads && running + decoding < 2 * maxConcurrentDownloads
        }

        mutating func forget(_ operation: DownloadOperation) {
            if operations[operation.key] === operation {
                operations[operation.key] = nil
            }
        }
    }

    /// The downloader the library uses unless given another.
    public static let shared = ImageDownloader()

    /// The configuration the downloader was created with.
    public let configuration: ImageDownloaderConfiguration
    /// The cookies kept for ``ImageDownloaderOptions/handleCookies``.
    public let cookieStore = DownloadCookieStore()
    let client: HTTPClient
    /// The client's configuration, from which the client of a connection pinned to an
    /// address by ``ImageDownloaderConfiguration/addressGate`` is made.
    let clientConfiguration: HTTPClient.Configuration
    /// The downloader's logs and metrics.
    let telemetry: DownloaderTelemetry
    /// How long a transfer may stay silent (``ImageDownloaderConfiguration/downloadTimeout``).
    let idleTimeout: TimeAmount
    private let state: NIOLockedValueBox<State>
    /// The consumers of ``events()``, by subscription number, apart from the state so
    /// that emitting events never waits for the queue's lock.
    /// How many bytes of partial bodies are kept for resuming (under
    /// ``ImageDownloaderConfiguration/maximumResumableBytes``).
    private let resumableBytes = NIOLockedValueBox(0)
    private let observers = NIOLockedValueBox<(streams: [Int: AsyncStream<DownloadEvent>.Continuation], nextID: Int)>(([:], 0))

    /// Creates a downloader with its own HTTP client.
    public init(configuration: ImageDownloaderConfiguration = ImageDownloaderConfiguration()) {
        self.configuration = configuration
        telemetry = DownloaderTelemetry(configuration.telemetry)
        let seconds = configuration.downloadTimeout > 0 ? configuration.downloadTimeout : 15
        idleTimeout = TimeAmount.nanoseconds(Int64(seconds * 1_000_000_000))
        // Silence is timed by `watchForSilentTransfers()`, not by the client's read timeout,
        // which schedules a timer on every read (about fifteen allocations per download).
        var clientConfiguration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: idleTimeout)
        )
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        self.clientConfiguration = clientConfiguration
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: clientConfiguration)
        state = NIOLockedValueBox(
            State(
                queue: DownloadQueue(order: configuration.executionOrder),
                maxConcurrentDownloads: max(1, configuration.maxConcurrentDownloads),
                headers: HTTPHeaders(configuration.httpHeaders.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
                rateBucket: configuration.rateLimit.map { TokenBucket($0, now: .now()) }
            ))
    }

    /// How many transfers run at once; a change takes effect at once.
    public var maxConcurrentDownloads: Int {
        get { state.withLockedValue { $0.maxConcurrentDownloads } }
        set {
            state.withLockedValue { $0.maxConcurrentDownloads = max(1, newValue) }
            startQueuedOperations()
        }
    }

    /// Whether queued downloads are held back; running ones go on.
    public var isSuspended: Bool {
        get { state.withLockedValue { $0.isSuspended } }
        set {
            state.withLockedValue { $0.isSuspended = newValue }
            startQueuedOperations()
        }
    }

    /// How many transfers are running or queued.
    public var currentDownloadCount: Int {
        state.withLockedValue { $0.running + $0.queue.count }
    }

    /// Sets a header sent with every request; `nil` removes it.
    public func setValue(_ value: String?, forHTTPHeaderField field: String) {
        state.withLockedValue { state in
            if let value {
                state.headers.replaceOrAdd(name: field, value: value)
            } else {
                state.headers.remove(name: field)
            }
        }
    }

    /// The value of a header sent with every request.
    public func value(forHTTPHeaderField field: String) -> String? {
        state.withLockedValue { $0.headers.first(name: field) }
    }

    /// Starts (or joins) the download of `request.url` and calls `completion` once on
    /// `callbackQueue` (the configuration's ``ImageDownloaderConfiguration/callbackQueue`` when
    /// `nil`). Progress and partial images arrive on the same queue, in order, before it.
    @discardableResult
    public func downloadImage(
        with request: ImageLoadRequest,
        callbackQueue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void
    ) -> DownloadToken {
        let queue = DispatchQueue(label: "WebImage.ImageDownloader.callbacks", target: callbackQueue ?? configuration.callbackQueue)
        let token = enqueue(DownloadHandler(request: request, queue: queue, completion: completion))
        request.priorityControl?.attach(token)
        return token
    }

    /// Downloads and decodes the image `request` asks for. Cancelling the calling task
    /// cancels this caller's share of the download. The request's progress and
    /// partial-image closures run on whatever thread produced them, in order: progress on
    /// an event-loop thread of the HTTP client, so it should return quickly.
    ///
    /// - Throws: `ImageError` — `ImageError.Code.cancelled` when the task is cancelled.
    public func image(for request: ImageLoadRequest) async throws(ImageError) -> ImageLoadResult {
        let tokenBox = NIOLockedValueBox<(token: DownloadToken?, isCancelled: Bool)>((nil, false))
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<ImageLoadResult, ImageError>, Never>) in
                let token = enqueue(DownloadHandler(request: request, queue: nil) { continuation.resume(returning: $0) })
                request.priorityControl?.attach(token)
                let cancelNow = tokenBox.withLockedValue { box in
                    box.token = token
                    return box.isCancelled
                }
                if cancelNow {
                    token.cancel()
                }
            }
        } onCancel: {
            let token = tokenBox.withLockedValue { box in
                box.isCancelled = true
                return box.token
            }
            token?.cancel()
        }
        return try result.get()
    }

    /// Downloads and decodes the image at `url`.
    public func image(
        from url: URL,
        options: ImageDownloaderOptions = [],
        decodeOptions: ImageDecodeOptions = ImageDecodeOptions(),
        validators: HTTPValidators? = nil
    ) async throws(ImageError) -> ImageLoadResult {
        try await image(for: ImageLoadRequest(url: url, options: options, decodeOptions: decodeOptions, validators: validators))
    }

    /// Downloads the bytes at `url` without decoding them (the result's image is `nil`),
    /// sharing the transfer with any caller that asks for the image.
    public func data(
        from url: URL,
        options: ImageDownloaderOptions = [],
        validators: HTTPValidators? = nil
    ) async throws(ImageError) -> ImageLoadResult {
        try await image(for: ImageLoadRequest(url: url, options: options, validators: validators, decodesImage: false))
    }

    /// Cancels every caller of every running or queued download.
    public func cancelAllDownloads() {
        let operations = state.withLockedValue { Array($0.operations.values) }
        for operation in operations {
            operation.cancelAll()
        }
    }

    /// A stream of the downloader's events; the subscription ends when the stream's
    /// consumer stops.
    public func events() -> AsyncStream<DownloadEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: DownloadEvent.self, bufferingPolicy: .unbounded)
        let id = observers.withLockedValue { observers in
            defer { observers.nextID += 1 }
            observers.streams[observers.nextID] = continuation
            return observers.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.observers.withLockedValue { _ = $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Cancels every download and closes the HTTP client; the downloader cannot be used
    /// after. Does nothing on ``shared``, which lives as long as the process.
    public func shutdown() async throws {
        guard self !== Self.shared else { return }
        cancelAllDownloads()
        let streams = observers.withLockedValue { observers in
            defer { observers.streams = [:] }
            return Array(observers.streams.values)
        }
        for stream in streams {
            stream.finish()
        }
        let (idleWatch, rateTimer) = state.withLockedValue { ($0.idleWatch, $0.rateTimer) }
        idleWatch?.cancel()
        rateTimer?.cancel()
        try await client.shutdown()
    }

    // MARK: - Engine

    func requestHeaders() -> HTTPHeaders {
        state.withLockedValue { $0.headers }
    }

    func emit(_ event: DownloadEvent) {
        let streams = observers.withLockedValue { Array($0.streams.values) }
        for stream in streams {
            stream.yield(event)
        }
    }

    private func enqueue(_ handler: DownloadHandler) -> DownloadToken {
        let url = handler.request.url
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            handler.complete(with: .failure(ImageError(.invalidURL, "\(url.absoluteString) is not an HTTP or HTTPS URL")))
            return DownloadToken(url: url, operation: nil, handlerID: 0)
        }
        let key = DownloadKey(handler.request, configuration: configuration)
        let (operation, handlerID) = state.withLockedValue { state -> (DownloadOperation, Int) in
            if let running = state.operations[key], let id = running.addHandler(handler) {
                if handler.priority > .low {
                    Self.requeue(running, in: &state)
                }
                return (running, id)
            }
            let operation = DownloadOperation(key: key, options: handler.request.options, downloader: self)
            let id = operation.addHandler(handler) ?? 0
            state.operations[key] = operation
            state.queue.append(operation, priority: handler.priority)
            return (operation, id)
        }
        startQueuedOperations()
        return DownloadToken(url: url, operation: operation, handlerID: handlerID)
    }

    /// Starts queued operations while slots are free: highest priority first, then by the
    /// execution order.
    private func startQueuedOperations() {
        while let next = nextOperationToStart() {
            next.start()
        }
    }

    private func nextOperationToStart() -> DownloadOperation? {
        state.withLockedValue { state in
            guard state.hasFreeSlot, !state.queue.isEmpty else { return nil }
            if state.rateBucket != nil, let wait = state.rateBucket!.take(at: .now()) {
                // Out of tokens: try again when the next one comes.
                if state.rateTimer == nil {
                    state.rateTimer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: wait) {
                        self.state.withLockedValue { $0.rateTimer = nil }
                        self.startQueuedOperations()
                    }
                }
                return nil
            }
            guard let next = state.queue.popNext() else { return nil }
            state.running += 1
            if state.idleWatch == nil {
                state.idleWatch = Task { await self.watchForSilentTransfers() }
            }
            return next
        }
    }

    /// Stops transfers that stay silent for ``idleTimeout``, checking four times per
    /// timeout while any transfer runs: one task per downloader instead of a timer per read.
    /// With a minimum transfer rate, it also stops the transfers below it, checking at least
    /// twice per grace period.
    ///
    /// Transfers note what they receive on the event loop as it arrives, so a busy
    /// cooperative pool can delay a check but not make a transfer look silent; a transfer
    /// is stopped only when found silent at two checks in a row.
    private func watchForSilentTransfers() async {
        var interval = UInt64(max(idleTimeout.nanoseconds / 4, 1_000_000))
        let minimumRate = configuration.minimumTransferRate.flatMap { $0.bytesPerSecond > 0 ? $0 : nil }
        if let minimumRate {
            interval = min(interval, UInt64(max(minimumRate.gracePeriod / 2, 0.001) * 1e9))
        }
        while true {
            try? await Task.sleep(nanoseconds: interval)
            let operations: [DownloadOperation]? = state.withLockedValue { state in
                guard state.running > 0, !Task.isCancelled else {
                    state.idleWatch = nil
                    return nil
                }
                return Array(state.operations.values)
            }
            guard let operations else { return }
            let now = NIODeadline.now()
            for operation in operations {
                operation.stopIfSilent(now: now, timeout: idleTimeout)
                if let minimumRate {
                    operation.stopIfSlowerThan(minimumRate, now: now)
                }
            }
        }
    }

    /// Takes `count` bytes of the resume budget; `false` when they do not fit.
    func reserveResumableBytes(_ count: Int) -> Bool {
        resumableBytes.withLockedValue { kept in
            guard kept + count <= configuration.maximumResumableBytes else { return false }
            kept += count
            return true
        }
    }

    /// Gives back `count` bytes of the resume budget.
    func releaseResumableBytes(_ count: Int) {
        resumableBytes.withLockedValue { $0 -= count }
    }

    /// How many bytes of partial bodies are kept for resuming now.
    var keptResumableBytes: Int {
        resumableBytes.withLockedValue { $0 }
    }

    /// Moves `operation`, when it is queued, to the line of its callers' highest priority.
    func requeue(_ operation: DownloadOperation) {
        state.withLockedValue { Self.requeue(operation, in: &$0) }
    }

    private static func requeue(_ operation: DownloadOperation, in state: inout State) {
        let (old, new) = operation.state.withLockedValue { operation -> (DownloadPriority, DownloadPriority) in
            let old = operation.priority
            guard operation.phase == .queued else { return (old, old) }
            operation.priority = DownloadOperation.callersPriority(operation)
            return (old, operation.priority)
        }
        state.queue.move(operation, from: old, to: new)
    }

    /// Forgets an operation every caller left before it started.
    func removeQueuedOperation(_ operation: DownloadOperation) {
        state.withLockedValue { state in
            state.queue.remove(operation)
            state.forget(operation)
        }
    }

    /// Frees the transfer slot of `operation`, whose bytes are in (or which failed). An
    /// operation that has served every caller is forgotten; one that is decoding still
    /// holds its body, and ends with ``operationDidFinish(_:)``.
    func transferDidEnd(_ operation: DownloadOperation, isFinished: Bool) {
        state.withLockedValue { state in
            state.running -= 1
            if isFinished {
                state.forget(operation)
            } else {
                state.decoding += 1
            }
        }
        startQueuedOperations()
    }

    /// Forgets `operation`, which has decoded and served every caller.
    func operationDidFinish(_ operation: DownloadOperation) {
        state.withLockedValue { state in
            state.decoding -= 1
            state.forget(operation)
        }
        startQueuedOperations()
    }
}
