import CoreMetrics
import Foundation
import Prometheus
import WebImage

/// What the image server counts, in Prometheus' text format at `/metrics`: requests by
/// status, their latency, source fetches (and those waiting for a free fetch), result-cache
/// hits and misses, the fallbacks answered for failed sources, the results made and the
/// requests that shared one being made, the encodes started by format and the work stopped
/// at a step as its request ended, bytes sent, the memory budget's use, the decoded sources'
/// hits, misses, evictions and bytes, and the decode workers' runs by outcome.
///
/// The metrics go through swift-metrics to a `PrometheusMetricsFactory` of the server's own,
/// so several servers in one process (tests, embedding) never share or re-bootstrap the
/// global metrics system.
///
/// Room Metrics/: what the server counts and the listener that answers `/metrics`.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
public struct ImageServerMetrics: Sendable {
    /// The registry `/metrics` reads.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    /// Metrics in a new registry.
    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
    }

    /// Counts a finished request with `status`, taking `duration`, that sent `bytes`.
    func recordRequest(status: Int, duration: Duration, bytes: Int) {
        CoreMetrics.Counter(label: "webimage_requests_total", dimensions: [("status", String(status))], factory: factory).increment()
        CoreMetrics.Timer(label: "webimage_request_duration_seconds", factory: factory).recordNanoseconds(duration.nanoseconds)
        CoreMetrics.Counter(label: "webimage_bytes_sent_total", factory: factory).increment(by: bytes)
    }

    /// Counts a look-up of the result cache.
    func recordResultCache(hit: Bool) {
        CoreMetrics.Counter(label: "webimage_result_cache_total", dimensions: [("result", hit ? "hit" : "miss")], factory: factory).increment()
    }

    /// Counts a result being made: one fetch, decode, transform and encode, however many
    /// requests wait for it (see ``SharedWork``).
    func recordResultWork() {
        CoreMetrics.Counter(label: "webimage_result_work_total", factory: factory).increment()
    }

    /// Counts a request that missed the result cache and joined the making of its result,
    /// already under way for another request, instead of making it again.
    func recordResultWorkJoined() {
        CoreMetrics.Counter(label: "webimage_result_work_joined_total", factory: factory).increment()
    }

    /// Counts a request whose source failed with `status` and that was answered the
    /// fallback image instead (the request itself is counted by the fallback's status).
    func recordFallback(failure status: Int) {
        CoreMetrics.Counter(label: "webimage_fallbacks_total", dimensions: [("failure", String(status))], factory: factory).increment()
    }

    /// Counts an encode started in `format`: one per result, one per candidate of `best`
    /// (an encode the request's end stopped before it started is not counted).
    func recordEncode(format: ImageFormat) {
        CoreMetrics.Counter(label: "webimage_encodes_total", dimensions: [("format", format.rawValue)], factory: factory).increment()
    }

    /// Counts a result whose making stopped at a step (before the transform, a candidate of
    /// `best`, a frame) because its request was over.
    func recordWorkStopped() {
        CoreMetrics.Counter(label: "webimage_work_stopped_total", factory: factory).increment()
    }

    /// Counts a source whose bytes had to be fetched (not found on disk).
    func recordSourceFetch() {
        CoreMetrics.Counter(label: "webimage_source_fetches_total", factory: factory).increment()
    }

    /// Sets the number of source fetches waiting for a free fetch (see ``SourceFetchLimits``).
    func recordFetchesWaiting(_ count: Int) {
        CoreMetrics.Gauge(label: "webimage_source_fetches_waiting", factory: factory).record(count)
    }

    /// Sets the bytes the work in flight holds of the memory budget, and the requests
    /// waiting for room in it (see ``MemoryAdmission``).
    func recordMemory(reserved: Int, waiting: Int) {
        CoreMetrics.Gauge(label: "webimage_memory_reserved_bytes", factory: factory).record(reserved)
        CoreMetrics.Gauge(label: "webimage_memory_waiting", factory: factory).record(waiting)
    }

    /// Counts a request's look-up of the decoded sources (see `DecodedSources`): a hit when
    /// a decode held, or under way for another request, served it; a miss when it decoded.
    func recordDecodedSource(hit: Bool) {
        CoreMetrics.Counter(label: "webimage_decoded_sources_total", dimensions: [("result", hit ? "hit" : "miss")], factory: factory)
            .increment()
    }

    /// Counts `evicted` decodes taken out of the decoded sources, and sets the bytes the
    /// tier keeps.
    func recordDecodedSourceEvictions(_ evicted: Int, bytesHeld: Int) {
        if evicted > 0 { CoreMetrics.Counter(label: "webimage_decoded_source_evictions_total", factory: factory).increment(by: evicted) }
        CoreMetrics.Gauge(label: "webimage_decoded_source_bytes", factory: factory).record(bytesHeld)
    }

    /// Counts a decode worker's run by how it ended (`decoded`, `refused`, `killed`,
    /// `crashed`, `failed`; see `DecodeWorkers`), and sets the number of workers running.
    func recordDecodeWorker(outcome: String, running: Int) {
        CoreMetrics.Counter(label: "webimage_decode_workers_total", dimensions: [("outcome", outcome)], factory: factory).increment()
        recordDecodeWorkers(running: running)
    }

    /// Counts an event of the decode workers started ahead (see `DecodeWorkerPool`):
    /// `started` (one is ready and waits), `taken` (a read took one), `missed` (a read found
    /// none and started its own), `lost` (a waiting one had ended, and is replaced), `failed`
    /// (one did not start).
    func recordDecodeWorkerPool(event: String) {
        CoreMetrics.Counter(label: "webimage_decode_worker_pool_total", dimensions: [("event", event)], factory: factory).increment()
    }

    /// Records the time a decode worker used by a read took from its spawn to ready:
    /// `waited` when the read started it and waited that long, not when it was started
    /// ahead (the time the read saved).
    func recordDecodeWorkerStartup(_ startup: Duration, waited: Bool) {
        CoreMetrics.Timer(label: "webimage_decode_worker_startup_seconds", dimensions: [("waited", waited ? "yes" : "no")], factory: factory)
            .recordNanoseconds(startup.nanoseconds)
    }

    /// Sets the number of decode workers running.
    func recordDecodeWorkers(running: Int) {
        CoreMetrics.Gauge(label: "webimage_decode_workers_running", factory: factory).record(running)
    }

    /// The metrics in Prometheus' text exposition format.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
