import Foundation
import HTTPTypes

/// A refusal or failure of the image server: an HTTP status and a short reason, sent as a
/// JSON body (`{"error":"…","status":403}`).
public struct ImageServerError: Error, Sendable, Equatable {
    /// The status the client receives.
    public var status: HTTPResponse.Status
    /// Why, in one sentence.
    public var message: String

    /// Creates a refusal.
    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
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
