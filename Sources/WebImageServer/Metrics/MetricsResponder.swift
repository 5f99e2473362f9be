import Hummingbird
import NIOCore

/// Answers the metrics listener: `/metrics` in Prometheus' text format, and nothing else.
/// It listens apart from the image server (loopback by default), so that the counters
/// never face the clients.
struct MetricsResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let metrics: ImageServerMetrics

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.uri.path == "/metrics" else {
            var response = Response(status: .notFound)
            response.headers[.xContentTypeOptions] = "nosniff"
            return response
        }
        var response = Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        response.headers[.contentType] = "text/plain; version=0.0.4"
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
