import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// One transfer of one URL, shared by every caller that asks for it while it runs.
///
/// Callers attach as handlers and each gets a ``DownloadToken``. The bytes are downloaded
/// once, streamed on the event loop by an ``HTTPExchange``; the image is decoded once per
/// distinct set of decode options among the callers, on the ``DecodingWorkers``. A caller
/// attached while the operation decodes is still served. The transfer stops when its last
/// caller cancels. A transient failure may start another attempt after a wait
/// (`DownloadOperation+Retry.swift`), resuming the body received so far when the response
/// allowed ranges; the operation keeps its slot, its callers and its deadline meanwhile.
final class DownloadOperation: Sendable {
    enum Phase {
        case queued
        case running
        case decoding
        case finished
    }

    struct State {
        var phase = Phase.queued
        /// The line of the queue the operation waits in: the highest priority among its
        /// callers (changed under the downloader's lock only).
        var priority: DownloadPriority
        var handlers: [Int: DownloadHandler] = [:]
        var nextHandlerID = 0
        /// The HTTP request under way (the latest, after redirects).
        var request: HTTPClient.Task<HTTPExchange.Outcome>?
        /// The latest partial decode; each waits for the one before, so awaiting it
        /// awaits every partial delivery.
        var partialDecode: Task<Void, Never>?
        var isDecodingPartial = false
        var lastReportedBytes: Int64 = 0
        /// When the transfer started or last received something.
        var lastActivity = NIODeadline.now()
        /// Whether the downloader's idle watch found the transfer silent at its last check.
        var wasFoundSilent = false
        /// When the transfer started: the callers' deadlines count from here.
        var transferStart: NIODeadline?
        /// When the first response head arrived: the minimum transfer rate is measured from
        /// here, so a slow first byte is the idle timeout's and the deadline's to judge.
        var firstResponse: NIODeadline?
        /// The bytes received since the first response head, over every attempt and
        /// redirect, for the minimum transfer rate.
        var receivedBytes = 0
        /// The timer that fails the callers whose deadline passes first, and when it fires.
        var deadlineTimer: (timer: Scheduled<Void>, deadline: NIODeadline)?
        /// Which attempt the transfer is at: 1 for the first.
        var attempt = 1
        /// The timer that starts the next attempt, while the transfer waits for it.
        var retryTimer: Scheduled<Void>?
        /// The bytes the next attempt resumes, while the transfer waits for it.
        var resumable: ResumableBody?
        /// The final response head, once it arrived (after the response modifier).
        var response: DownloadResponseHead?
        /// The transfer's figures so far, from its start.
        var metrics: DownloadMetrics?
        /// Whether the transfer has ended (its ``metrics`` are final).
        var hasTransferEnded = false
    }

    let key: DownloadKey
    let options: ImageDownloaderOptions
    let downloader: ImageDownloader
    let state: NIOLockedValueBox<State>

    var url: URL { key.url }

    init(key: DownloadKey, options: ImageDownloaderOptions, downloader: ImageDownloader) {
        self.key = key
        self.options = options
        self.downloader = downloader
        state = NIOLockedValueBox(State(priority: options.priority))
    }

    /// Attaches a caller; `nil` when the operation has already served its callers.
    func addHandler(_ handler: DownloadHandler) -> Int? {
        let (id, isRunning) = state.withLockedValue { state -> (Int?, Bool) in
            guard state.phase != .finished else { return (nil, false) }
            let id = state.nextHandlerID
            state.nextHandlerID += 1
            state.handlers[id] = handler
            return (id, state.phase == .running)
        }
        if isRunning {
            scheduleDeadline()
        }
        return id
    }

    /// Ends one caller's share: its completion reports `error`, or
    /// `ImageError.Code.cancelled` when `nil`. The transfer stops when no caller is left.
    func cancel(handlerID: Int, error: ImageError? = nil) {
        typealias Abandoned = (handler: DownloadHandler?, phase: Phase?, request: HTTPClient.Task<HTTPExchange.Outcome>?, retry: Scheduled<Void>?, keptBytes: Int)
        var requeues = false
        let abandoned = state.withLockedValue { state -> Abandoned in
            guard let handler = state.handlers.removeValue(forKey: handlerID) else { return (nil, nil, nil, nil, 0) }
            guard state.handlers.isEmpty, state.phase == .running || state.phase == .queued else {
                // The callers left may want a lower priority than the one that left.
                requeues = state.phase == .queued && handler.priority == state.priority
                return (handler, nil, nil, nil, 0)
            }
            let phase = state.phase
            state.phase = .finished
            defer {
                state.retryTimer = nil
                state.resumable = nil
            }
            return (handler, phase, state.request, state.retryTimer, state.resumable?.count ?? 0)
        }
        if abandoned.keptBytes > 0 {
            downloader.releaseResumableBytes(abandoned.keptBytes)
        }
        if abandoned.phase == .queued {
            downloader.removeQueuedOperation(self)
        } else if requeues {
            downloader.requeue(self)
        }
        // Outside the lock: a request failed on its own event loop completes in place.
        abandoned.request?.cancel()
        let cancelled = error ?? ImageError(.cancelled, "the download of \(url.absoluteString) was cancelled")
        if let retry = abandoned.retry {
            // Waiting for its next attempt, the transfer has no request to end it: end it here.
            retry.cancel()
            transferDidEnd(with: .failure(cancelled))
        }
        abandoned.handler?.complete(with: .failure(cancelled))
    }

    /// Changes the priority of the caller `handlerID`; a queued operation moves to the line
    /// of its callers' highest priority.
    func setPriority(_ priority: DownloadPriority, handlerID: Int) {
        let changed = state.withLockedValue { state -> Bool in
            guard state.phase == .queued, state.handlers[handlerID] != nil else { return false }
            state.handlers[handlerID]!.priority = priority
            return true
        }
        if changed {
            downloader.requeue(self)
        }
    }

    /// The highest priority among the callers, or the current one when none is left.
    /// Called with the state locked.
    static func callersPriority(_ state: State) -> DownloadPriority {
        state.handlers.values.lazy.map(\.priority).max() ?? state.priority
    }

    /// Cancels every caller.
    func cancelAll() {
        let ids = state.withLockedValue { Array($0.handlers.keys) }
        for id in ids {
            cancel(handlerID: id)
        }
    }

    /// Starts the transfer; called by the downloader when a slot is free.
    func start() {
        let started = state.withLockedValue { state -> Bool in
            guard state.phase == .queued, !state.handlers.isEmpty else {
                state.phase = .finished
                return false
            }
            state.phase = .running
            state.lastActivity = .now()
            state.transferStart = state.lastActivity
            let now = ContinuousClock.Instant.now
            state.metrics = DownloadMetrics(start: now, end: now)
            return true
        }
        guard started else {
            downloader.transferDidEnd(self, isFinished: true)
            return
        }
        scheduleDeadline()
        downloader.telemetry.logger.trace("download started", metadata: ["url": "\(url.absoluteString)"])
        downloader.emit(.started(url))
        HTTPExchange.send(for: self, to: url)
    }

    /// Records that the transfer received something (`bytes` of body), for the idle
    /// timeout and the minimum transfer rate.
    func noteActivity(receivedBytes bytes: Int = 0) {
        state.withLockedValue { state in
            state.lastActivity = .now()
            state.wasFoundSilent = false
            state.receivedBytes += bytes
        }
    }

    /// Records that a response head arrived, for the idle timeout; the first one starts
    /// the minimum transfer rate's clock.
    func noteResponseHead() {
        state.withLockedValue { state in
            state.lastActivity = .now()
            state.wasFoundSilent = false
            if state.firstResponse == nil { state.firstResponse = state.lastActivity }
        }
    }

    /// Stops the transfer when, past `rate`'s grace period after its first response head,
    /// it has averaged fewer than `rate`'s bytes a second since that head; its callers then
    /// get `ImageError.Code.timedOut`. A transfer waiting to retry is not measured.
    func stopIfSlowerThan(_ rate: DownloadTransferRate, now: NIODeadline) {
        let slow = state.withLockedValue { state -> (HTTPClient.Task<HTTPExchange.Outcome>, Int, Double)? in
            guard state.phase == .running, state.retryTimer == nil, let start = state.firstResponse, let request = state.request else { return nil }
            let seconds = Double((now - start).nanoseconds) / 1e9
            guard seconds >= rate.gracePeriod, Double(state.receivedBytes) < Double(rate.bytesPerSecond) * seconds else { return nil }
            return (request, state.receivedBytes, seconds)
        }
        guard let (request, bytes, seconds) = slow else { return }
        request.fail(
            reason: ImageError(
                .timedOut,
                "the download of \(url.absoluteString) received \(bytes) bytes in \(String(format: "%.1f", seconds)) s, below the minimum of \(rate.bytesPerSecond) bytes a second"
            ))
    }

    /// Stops the transfer when it has been silent for `timeout` at this check and at the
    /// one before; its callers then get `ImageError.Code.timedOut`.
    func stopIfSilent(now: NIODeadline, timeout: TimeAmount) {
        let request = state.withLockedValue { state -> HTTPClient.Task<HTTPExchange.Outcome>? in
            guard state.phase == .running, state.retryTimer == nil, now - state.lastActivity >= timeout else { return nil }
            guard state.wasFoundSilent else {
                state.wasFoundSilent = true
                return nil
            }
            return state.request
        }
        request?.fail(reason: ImageError(.timedOut, "the download of \(url.absoluteString) received nothing for \(Double(timeout.nanoseconds) / 1e9) s"))
    }

    /// The final response head, once it arrived.
    var response: DownloadResponseHead? {
        state.withLockedValue { $0.response }
    }

    /// The transfer's metrics, once it has ended (succeeded or failed).
    var finalMetrics: DownloadMetrics? {
        state.withLockedValue { $0.hasTransferEnded ? $0.metrics : nil }
    }

    /// Keeps the final response head for the callers' tokens.
    func noteResponse(_ response: DownloadResponseHead) {
        state.withLockedValue { $0.response = response }
    }

    /// Adds the figures of one request and its answer to the transfer's metrics.
    func recordExchange(requestSent: ContinuousClock.Instant?, responseStart: ContinuousClock.Instant?, bodyBytes: Int, isRedirect: Bool) {
        state.withLockedValue { state in
            state.metrics?.requestSent = requestSent
            state.metrics?.responseStart = responseStart
            state.metrics?.bytesReceived += bodyBytes
            if isRedirect {
                state.metrics?.redirectCount += 1
            }
        }
    }

    /// Serves the callers once the transfer has ended, after any partial image still
    /// being decoded, so that no partial image arrives after the final result.
    func transferDidEnd(with outcome: Result<(DownloadResponseHead, Data), ImageError>) {
        // The finished request keeps its delegate, and the delegate the body: let both go.
        let (partialDecode, metrics) = state.withLockedValue { state in
            state.request = nil
            state.deadlineTimer?.timer.cancel()
            state.deadlineTimer = nil
            state.metrics?.end = .now
            state.metrics?.attemptCount = state.attempt
            state.metrics?.statusCode = state.response?.statusCode
            state.hasTransferEnded = true
            return (state.partialDecode, state.metrics)
        }
        if let metrics {
            downloader.telemetry.recordTransfer(of: url, metrics: metrics, outcome: outcome)
        }
        if let partialDecode {
            Task {
                await partialDecode.value
                self.deliver(outcome, metrics: metrics)
            }
        } else {
            deliver(outcome, metrics: metrics)
        }
    }

    private func deliver(_ outcome: Result<(DownloadResponseHead, Data), ImageError>, metrics: DownloadMetrics?) {
        downloader.emit(.stopped(url))
        switch outcome {
        case .success(let (response, data)) where response.statusCode != 304:
            downloader.emit(.finished(url))
            let body = DownloadedBody(data: data, response: response, metrics: metrics)
            guard let decryptor = key.hooks.decryptor else {
                deliver(body)
                return
            }
            // Decrypting may take a while: on a decoding thread, holding a decoding share.
            state.withLockedValue { $0.phase = .decoding }
            downloader.transferDidEnd(self, isFinished: false)
            DecodingWorkers.submit {
                if let plain = decryptor.decrypted(data, response: response) {
                    let body = DownloadedBody(data: plain, response: response, metrics: metrics)
                    if self.deliverBytes(body) {
                        self.decodeAndDeliver(body)
                    }
                } else {
                    self.serveAll(with: .failure(ImageError(.badImageData, "the decryptor could not decrypt the body of \(self.url.absoluteString)")))
                }
                self.downloader.operationDidFinish(self)
            }
        case .success(let (response, _)):
            downloader.emit(.finished(url))
            finish(with: .success(ImageLoadResult(image: nil, data: Data(), response: response, isNotModified: true, metrics: metrics)))
        case .failure(let error):
            finish(with: .failure(error))
        }
    }

    /// Serves the callers of a received `body`: those that want the bytes only at once,
    /// the others once it is decoded on a decoding thread.
    private func deliver(_ body: DownloadedBody) {
        let decodingRemains = deliverBytes(body)
        downloader.transferDidEnd(self, isFinished: !decodingRemains)
        if decodingRemains {
            // The decoding thread serves the callers itself: no hop back to the event loop.
            DecodingWorkers.submit {
                self.decodeAndDeliver(body)
                self.downloader.operationDidFinish(self)
            }
        }
    }

    /// Gives every caller the same result and ends the operation.
    private func finish(with result: Result<ImageLoadResult, ImageError>) {
        serveAll(with: result)
        downloader.transferDidEnd(self, isFinished: true)
    }

    /// Gives every caller the same result.
    private func serveAll(with result: Result<ImageLoadResult, ImageError>) {
        let handlers = state.withLockedValue { state in
            state.phase = .finished
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers {
            handler.complete(with: result)
        }
    }

    /// Serves the callers that asked for the bytes only, here and now.
    ///
    /// - Returns: Whether callers that want the image remain, to be served by
    ///   ``decodeAndDeliver(_:)``.
    private func deliverBytes(_ body: DownloadedBody) -> Bool {
        let (served, decodingRemains) = state.withLockedValue { state in
            var served = state.handlers
            if served.values.contains(where: \.request.decodesImage) {
                served = served.filter { !$0.value.request.decodesImage }
                for id in served.keys {
                    state.handlers[id] = nil
                }
            } else {
                state.handlers = [:]
            }
            state.phase = state.handlers.isEmpty ? .finished : .decoding
            return (served.values, !state.handlers.isEmpty)
        }
        let result = Result<ImageLoadResult, ImageError>.success(body.result(image: nil))
        for handler in served {
            handler.complete(with: result)
        }
        return decodingRemains
    }

    /// Decodes once per distinct decode options and serves every caller, including callers
    /// that attach while decoding runs. Runs on a decoding thread.
    private func decodeAndDeliver(_ body: DownloadedBody) {
        var decoded: [ImageDecodeOptions: Result<ImageLoadResult, ImageError>] = [:]
        while true {
            let waiting = state.withLockedValue { state -> [DownloadHandler] in
                let handlers = Array(state.handlers.values)
                state.handlers = [:]
                state.phase = handlers.isEmpty ? .finished : .decoding
                return handlers
            }
            guard !waiting.isEmpty else { return }
            for handler in waiting {
                guard handler.request.decodesImage else {
                    handler.complete(with: .success(body.result(image: nil)))
                    continue
                }
                let options = effectiveDecodeOptions(for: handler.request, partial: false)
                let result = decoded[options] ?? decode(body, options: options)
                decoded[options] = result
                handler.complete(with: result)
            }
        }
    }

    private func decode(_ body: DownloadedBody, options: ImageDecodeOptions) -> Result<ImageLoadResult, ImageError> {
        let start = ContinuousClock.Instant.now
        let result: Result<ImageLoadResult, ImageError>
        do throws(ImageError) {
            let image = try downloader.configuration.coders.decode(body.data, options: options)
            if image.pixelWidth > 0, image.pixelHeight > 0 {
                result = .success(body.result(image: image))
            } else {
                result = .failure(ImageError(.badImageData, "the downloaded image has no pixels"))
            }
        } catch {
            result = .failure(error)
        }
        downloader.telemetry.recordDecode(of: url, duration: start.duration(to: .now), result: result)
        return result
    }

    func effectiveDecodeOptions(for request: ImageLoadRequest, partial: Bool) -> ImageDecodeOptions {
        var options = request.decodeOptions
        if !partial, request.options.contains(.scaleDownLargeImages), options.scaleDownLimitBytes == nil {
            options.scaleDownLimitBytes = downloader.configuration.scaleDownLimitBytes
        }
        return options
    }
}
