import Tracing

/// A span that has ended and was sampled, as the exporter sends it: everything the OTLP
/// span message carries that the server's spans use.
struct FinishedSpan: Sendable {
    let name: String
    let kind: SpanKind
    let context: TraceContext
    /// The parent's id; `nil` for a root span.
    let parentSpanID: SpanID?
    let startNanoseconds: UInt64
    let endNanoseconds: UInt64
    let attributes: SpanAttributes
    let status: SpanStatus?
    let events: [SpanEvent]
    /// The linked spans' contexts, with the link's attributes.
    let links: [(context: TraceContext, attributes: SpanAttributes)]
}
