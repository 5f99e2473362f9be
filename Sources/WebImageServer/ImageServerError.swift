import Foundation
import HTTPTypes

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
