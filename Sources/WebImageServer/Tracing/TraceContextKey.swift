import Tracing

/// Where an ``OTLPTracer`` keeps a span's ``TraceContext`` in an `InstrumentationContext`.
enum TraceContextKey: InstrumentationContextKey {
    typealias Value = TraceContext
    static var nameOverride: String? { "webimage.trace-context" }
}
