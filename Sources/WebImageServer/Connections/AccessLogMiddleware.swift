import Foundation
import Hummingbird
import Logging

/// Answers every request's refusal, marks every answer `X-Content-Type-Options: nosniff`,
/// counts it in the metrics and writes its access-log line: the client hears the class of
/// a failure, the log keeps its detail.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ImageServerRequestContext

    let metrics: ImageServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        var failure: ImageServerError?
        do {
            response = try await next(request, context)
            failure = context.fallbackFailure.withLockedValue { $0 }
        } catch let error as ImageServerError {
            response = error.response
            failure = error
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        let duration = ContinuousClock.now - start
        let bytes = response.headers[.contentLength].flatMap { Int($0) } ?? 0
        metrics.recordRequest(status: Int(response.status.code), duration: duration, bytes: bytes)
        // What comes from the request is escaped: a client must not break or forge a line.
        var metadata: Logger.Metadata = [
            "method": "\(AccessLogField.escaped(request.method.rawValue))",
            "path": "\(AccessLogField.escaped(request.uri.path))",
            "status": "\(response.status.code)",
            "ms": "\(Self.milliseconds(duration))",
            "bytes": "\(bytes)",
        ]
        if let failure {
            metadata["error"] = "\(AccessLogField.escaped(failure.message))"
            if let detail = failure.detail { metadata["detail"] = "\(AccessLogField.escaped(detail))" }
        }
        context.logger.info("request", metadata: metadata)
        return response
    }

    /// `duration` in milliseconds with one decimal, rounded (`12.3`), written without
    /// Foundation's `String(format:)`, which goes through `NSString` on Linux on every request.
    static func milliseconds(_ duration: Duration) -> String {
        let tenths = (max(0, duration.nanoseconds) + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
