import Foundation
import Tracing

/// A `Tracer` of swift-distributed-tracing whose spans are exported over OTLP/HTTP in the
/// JSON encoding (see ``OTLPConfiguration``), and whose context crosses processes as W3C
/// Trace Context (`traceparent`, `tracestate`).
///
/// `webimage serve` makes one when `OTEL_TRACES_EXPORTER=otlp`, bootstraps
/// `InstrumentationSystem` with it and gives it to its ``ImageServer``; an application can
/// do the same, or give the server a tracer of its own. Call ``shutdown()`` when the
/// server has stopped, so that the last spans are sent. See <doc:Tracing>.
///
/// Room Tracing/: a request followed across the fleet — W3C trace context in, a span for
/// the request and each stage, OTLP/HTTP JSON out.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
public struct OTLPTracer: Tracer {
    /// The tracer's span.
    public typealias Span = OTLPSpan

    /// What the tracer was made with.
    public let configuration: OTLPConfiguration
    private let exporter: OTLPExporter

    /// A tracer exporting as `configuration` says; its exporter's task starts now.
    public init(configuration: OTLPConfiguration) {
        self.configuration = configuration
        exporter = OTLPExporter(configuration: configuration)
    }

    /// Starts a span under the ``TraceContext`` in `context` (from an enclosing span, or
    /// from a request's `traceparent`), or a new trace without one; the sampler decides
    /// whether it records.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> OTLPSpan {
        var context = context()
        let parent = context[TraceContextKey.self]
        let traceID = parent?.traceID ?? TraceID.random()
        let sampled = configuration.sampler.samples(traceID, parent: parent)
        let flags = (parent?.flags ?? 0) & ~1 | (sampled ? 1 : 0)
        let trace = TraceContext(traceID: traceID, spanID: SpanID.random(), flags: flags, traceState: parent?.traceState)
        context[TraceContextKey.self] = trace
        return OTLPSpan(
            name: operationName, kind: kind, context: context, trace: trace, parentSpanID: parent?.spanID,
            start: instant().nanosecondsSinceEpoch, exporter: exporter)
    }

    /// Reads `traceparent` and `tracestate` from `carrier` into `context`; an invalid
    /// `traceparent` is ignored (the request starts a trace of its own), as W3C asks.
    public func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        guard let traceparent = extractor.extract(key: "traceparent", from: carrier),
            let trace = TraceContext(traceparent: traceparent, tracestate: extractor.extract(key: "tracestate", from: carrier))
        else { return }
        context[TraceContextKey.self] = trace
    }

    /// Writes the `traceparent` (and `tracestate`) of the span in `context` into `carrier`.
    public func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let trace = context[TraceContextKey.self] else { return }
        injector.inject(trace.traceparent, forKey: "traceparent", into: &carrier)
        if let state = trace.traceState { injector.inject(state, forKey: "tracestate", into: &carrier) }
    }

    /// Wakes the exporter to send what is queued now.
    public func forceFlush() {
        exporter.flush()
    }

    /// Sends what is queued, then stops the exporter; spans that end afterwards are dropped.
    public func shutdown() async {
        await exporter.shutdown()
    }

    /// The spans dropped because the export queue was full (or the exporter had stopped).
    public var droppedSpanCount: Int { exporter.droppedSpanCount }
    /// The spans the collector accepted.
    public var exportedSpanCount: Int { exporter.exportedSpanCount }
    /// The POSTs that failed (no answer in time, or not 2xx); their spans are lost.
    public var failedExportCount: Int { exporter.failedExportCount }
}
