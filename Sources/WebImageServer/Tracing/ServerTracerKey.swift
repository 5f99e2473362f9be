import Tracing

/// Where a request's `InstrumentationContext` carries the tracer its server was given, so
/// that each stage starts its span with it (see ``StageSpan``). Only a server with a tracer
/// puts one there: without one, no stage looks further than the missing key.
enum ServerTracerKey: InstrumentationContextKey {
    typealias Value = any Tracer
    static var nameOverride: String? { "webimage.tracer" }
}
