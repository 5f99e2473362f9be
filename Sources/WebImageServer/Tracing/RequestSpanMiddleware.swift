import HTTPTypes
import Hummingbird
import Tracing

/// The span of each request, the root of its stages' spans (see <doc:Tracing>): added to
/// the server's router only when the server has a tracer.
///
/// The span's parent is the caller's, from the request's W3C `traceparent` (a mounting
/// application's own request span, when it has one, comes first). The span records the
/// method, the path and the answer's status, and ends when the answer is made (the body
/// may still be on its way to the client).
struct RequestSpanMiddleware: RouterMiddleware {
    typealias Context = ImageServerRequestContext

    /// The server's tracer: it starts the request's span, and each stage's after it.
    let tracer: any Tracer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var traceContext: InstrumentationContext
        if let current = InstrumentationContext.current {
            traceContext = current
        } else {
            traceContext = .topLevel
            tracer.extract(request.headers, into: &traceContext, using: HTTPFieldsExtractor())
        }
        traceContext[ServerTracerKey.self] = tracer
        let span = tracer.startSpan("request", context: traceContext, ofKind: .server)
        span.updateAttributes { attributes in
            attributes["http.request.method"] = request.method.rawValue
            attributes["url.path"] = request.uri.path
        }
        do {
            let response = try await InstrumentationContext.$current.withValue(span.context) { try await next(request, context) }
            let status = Int(response.status.code)
            span.attributes["http.response.status_code"] = status
            if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
            span.end()
            return response
        } catch {
            let status = (error as? any HTTPResponseError).map { Int($0.status.code) } ?? 500
            span.attributes["http.response.status_code"] = status
            if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
            span.recordError(error)
            span.end()
            throw error
        }
    }
}
