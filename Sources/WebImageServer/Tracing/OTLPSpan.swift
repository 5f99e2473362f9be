import NIOConcurrencyHelpers
import Tracing

/// A span of an ``OTLPTracer``: its name, attributes, status, events and links are kept
/// under a lock until it ends; then, when its trace is sampled, it is handed to the
/// tracer's exporter, once. A span whose trace is not sampled keeps nothing.
public final class OTLPSpan: Span, Sendable {
    /// What a span records until it ends.
    private struct Record {
        var name: String
        var attributes = SpanAttributes()
        var status: SpanStatus?
        var events: [SpanEvent] = []
        var links: [(context: TraceContext, attributes: SpanAttributes)] = []
        var ended = false
    }

    /// The span's `InstrumentationContext`: its parent's, with this span's ``TraceContext``.
    public let context: InstrumentationContext
    /// Whether the span's trace is sampled: only then is anything kept and exported.
    public let isRecording: Bool
    private let kind: SpanKind
    private let trace: TraceContext
    private let parentSpanID: SpanID?
    private let start: UInt64
    private let exporter: OTLPExporter
    private let record: NIOLockedValueBox<Record>

    init(
        name: String, kind: SpanKind, context: InstrumentationContext, trace: TraceContext, parentSpanID: SpanID?, start: UInt64,
        exporter: OTLPExporter
    ) {
        self.context = context
        isRecording = trace.isSampled
        self.kind = kind
        self.trace = trace
        self.parentSpanID = parentSpanID
        self.start = start
        self.exporter = exporter
        record = NIOLockedValueBox(Record(name: name))
    }

    /// The span's name.
    public var operationName: String {
        get { record.withLockedValue { $0.name } }
        set { record.withLockedValue { $0.name = newValue } }
    }

    /// The span's attributes (none kept when it is not recording).
    public var attributes: SpanAttributes {
        get { record.withLockedValue { $0.attributes } }
        set {
            guard isRecording else { return }
            record.withLockedValue { $0.attributes = newValue }
        }
    }

    /// Sets the span's status.
    public func setStatus(_ status: SpanStatus) {
        guard isRecording else { return }
        record.withLockedValue { $0.status = status }
    }

    /// Adds an event to the span.
    public func addEvent(_ event: SpanEvent) {
        guard isRecording else { return }
        record.withLockedValue { $0.events.append(event) }
    }

    /// Records `error` as an `exception` event, with the error's type and description.
    public func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {
        guard isRecording else { return }
        var attributes = attributes
        attributes["exception.type"] = String(describing: type(of: error))
        attributes["exception.message"] = String(describing: error)
        addEvent(SpanEvent(name: "exception", at: instant(), attributes: attributes))
    }

    /// Links the span to another span's context, when that context is one of an ``OTLPTracer``.
    public func addLink(_ link: SpanLink) {
        guard isRecording, let other = link.context[TraceContextKey.self] else { return }
        record.withLockedValue { $0.links.append((other, link.attributes)) }
    }

    /// Ends the span at `instant`: the first call hands a sampled span to the exporter;
    /// later calls do nothing.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let ended = record.withLockedValue { record -> Record? in
            guard !record.ended else { return nil }
            record.ended = true
            return record
        }
        guard isRecording, let ended else { return }
        exporter.enqueue(
            FinishedSpan(
                name: ended.name, kind: kind, context: trace, parentSpanID: parentSpanID, startNanoseconds: start,
                endNanoseconds: instant().nanosecondsSinceEpoch, attributes: ended.attributes, status: ended.status, events: ended.events,
                links: ended.links))
    }
}
