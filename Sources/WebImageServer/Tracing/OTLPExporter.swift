import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Sends finished spans to an OTLP/HTTP endpoint in the JSON encoding, in batches, from a
/// task of its own.
///
/// A span that ends is appended to a queue of at most ``OTLPConfiguration/maxQueueSize``
/// spans, reserved when the exporter starts: appending takes a lock for a moment and never
/// allocates, waits or sends. When the queue is full the span is dropped and counted
/// (``OTLPTracer/droppedSpanCount``): a slow or absent collector costs the server spans,
/// never memory or latency. The exporter's task sends what the queue holds every
/// ``OTLPConfiguration/scheduleDelay``, or as soon as a batch's worth
/// (``OTLPConfiguration/maxExportBatchSize``) is waiting, in POSTs of at most a batch each.
final class OTLPExporter: Sendable {
    /// What the queue and the counts are.
    private struct State {
        var queue: [FinishedSpan]
        var dropped = 0
        var exported = 0
        var failedExports = 0
        /// Whether the exporter is stopping: nothing more is queued.
        var stopping = false
    }

    private let configuration: OTLPConfiguration
    private let state: NIOLockedValueBox<State>
    private let client: HTTPClient
    /// Wakes the sending task: a tick of the schedule, a full batch, or the stop.
    private let wakes: AsyncStream<Void>.Continuation
    private let sending: NIOLockedValueBox<Task<Void, Never>?>
    private let ticking: NIOLockedValueBox<Task<Void, Never>?>

    /// Starts an exporter to `configuration`'s endpoint.
    init(configuration: OTLPConfiguration) {
        self.configuration = configuration
        var queue: [FinishedSpan] = []
        queue.reserveCapacity(configuration.maxQueueSize)
        state = NIOLockedValueBox(State(queue: queue))
        var clientConfiguration = HTTPClient.Configuration()
        // The exporter's own POSTs are never traced: each would make a span to export.
        clientConfiguration.tracing.tracer = nil
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: clientConfiguration)
        let (stream, wakes) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wakes = wakes
        sending = NIOLockedValueBox(nil)
        ticking = NIOLockedValueBox(nil)
        let delay = configuration.scheduleDelay
        ticking.withLockedValue {
            $0 = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: delay)
                    wakes.yield()
                }
            }
        }
        sending.withLockedValue {
            $0 = Task { [self] in
                for await _ in stream { await sendQueued() }
                await sendQueued()
            }
        }
    }

    /// Queues `span` for the next POST, or drops and counts it when the queue is full.
    func enqueue(_ span: FinishedSpan) {
        let (limit, batch) = (configuration.maxQueueSize, configuration.maxExportBatchSize)
        let batchReady = state.withLockedValue { state -> Bool in
            guard !state.stopping, state.queue.count < limit else {
                state.dropped += 1
                return false
            }
            state.queue.append(span)
            return state.queue.count == batch
        }
        if batchReady { wakes.yield() }
    }

    /// Wakes the sending task to send what is queued now.
    func flush() {
        wakes.yield()
    }

    /// The spans dropped because the queue was full, or because the exporter had stopped.
    var droppedSpanCount: Int { state.withLockedValue { $0.dropped } }
    /// The spans a collector accepted (answered 2xx).
    var exportedSpanCount: Int { state.withLockedValue { $0.exported } }
    /// The POSTs that failed: no answer within the timeout, or an answer other than 2xx.
    var failedExportCount: Int { state.withLockedValue { $0.failedExports } }

    /// Sends what is queued, then stops the exporter's tasks and its HTTP client.
    func shutdown() async {
        state.withLockedValue { $0.stopping = true }
        ticking.withLockedValue { $0?.cancel() }
        wakes.finish()
        await sending.withLockedValue { $0 }?.value
        try? await client.shutdown()
    }

    /// Sends every queued span, a batch per POST.
    private func sendQueued() async {
        let queued = state.withLockedValue { state -> [FinishedSpan] in
            let queued = state.queue
            state.queue.removeAll(keepingCapacity: true)
            return queued
        }
        var start = 0
        while start < queued.count {
            let end = min(start + configuration.maxExportBatchSize, queued.count)
            await send(Array(queued[start..<end]))
            start = end
        }
    }

    /// POSTs `spans` as one OTLP/JSON `ExportTraceServiceRequest`.
    private func send(_ spans: [FinishedSpan]) async {
        var request = HTTPClientRequest(url: configuration.endpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in configuration.headers { request.headers.add(name: name, value: value) }
        let body = OTLPJSON.exportRequest(spans, resource: configuration.resourceAttributes)
        request.body = .bytes(ByteBuffer(bytes: body))
        let accepted: Bool
        do {
            let (seconds, attoseconds) = configuration.timeout.components
            let timeout = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            let response = try await client.execute(request, timeout: timeout)
            _ = try await response.body.collect(upTo: 1 << 20)
            accepted = (200..<300).contains(response.status.code)
        } catch {
            accepted = false
        }
        state.withLockedValue { state in
            if accepted { state.exported += spans.count } else { state.failedExports += 1 }
        }
    }
}
