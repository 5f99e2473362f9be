import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WebImage

/// A refusal or failure of the image server: an HTTP status and a short reason, sent as a
/// JSON body (`{"error":"…","status":403}`).
///
/// The reason names only the class of the failure (`source not found`, `address not
/// allowed`); what would tell a client about the server's network — a URL, a host, an
/// address, an upstream status — stays in ``detail``, which goes to the request's log line
/// only.
public struct ImageServerError: Error, Sendable, Equatable {
    /// The status the client receives.
    public var status: HTTPResponse.Status
    /// Why, in one sentence.
    public var message: String
    /// The full story for the operator's log; never sent to the client.
    public var detail: String?
    /// Whether a fallback image may answer for the failure: the source's failures (not
    /// found, refused by the address policy, timed out, not an image, over a source limit)
    /// and the request's deadline passing. A refusal of the request itself never is.
    var allowsFallback = false
    /// The status the source answered, when the failure is a source's answer other than
    /// success (the imgproxy dialect answers a source's 4xx with it).
    var sourceStatus: Int?

    /// Creates a refusal.
    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// Creates a refusal whose `detail` goes to the log only.
    public init(_ status: HTTPResponse.Status, _ message: String, detail: String?) {
        self.status = status
        self.message = message
        self.detail = detail
    }

    /// The JSON body.
    var body: String {
        let escaped =
            message
            .replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: " ")
        return "{\"error\":\"\(escaped)\",\"status\":\(status.code)}\n"
    }
}

extension ImageServerError {
    /// The failure a source load reports, and the class of it the client hears (one a
    /// fallback image may answer for, but a bad URL); the error's message (which may name
    /// URLs, hosts, addresses and upstream statuses) goes to the log only.
    init(source error: ImageError) {
        let (status, message): (HTTPResponse.Status, String) =
            switch error.code {
            case .responseTooLarge: (.contentTooLarge, "source too large")
            case .imageTooLarge: (.unprocessableContent, "source image too large")
            case .badImageData, .emptyData, .unsupportedFormat: (.unprocessableContent, "source not an image")
            case .timedOut, .deadlineExceeded: (.gatewayTimeout, "source timed out")
            case .refused: (.forbidden, "address not allowed")
            case .invalidURL, .blacklisted: (.badRequest, "bad source URL")
            case .cannotFindHost: (.notFound, "source not found")
            case .invalidStatusCode where error.statusCode == 404 || error.statusCode == 410: (.notFound, "source not found")
            default: (.badGateway, "source refused")
            }
        self.init(status, message, detail: error.description)
        if error.code == .invalidStatusCode { sourceStatus = error.statusCode }
        // A bad source URL is the request's own fault, not the source's.
        allowsFallback = status != .badRequest
    }

    /// The answer that carries the refusal: its status and JSON body, and `Retry-After: 1`
    /// for a 503 (the server is busy or out of memory for now).
    var response: Response {
        var response = Response.text(body, contentType: "application/json")
        response.status = status
        if status == .serviceUnavailable { response.headers[.retryAfter] = "1" }
        return response
    }
}
