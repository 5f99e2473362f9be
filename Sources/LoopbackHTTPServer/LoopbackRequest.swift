import NIOHTTP1

/// A request the loopback server received: method, target and headers (the body is not kept).
public struct LoopbackRequest: Sendable {
    /// The method, such as `GET`.
    public let method: String
    /// The path without the query, such as `/images/a.png`.
    public let path: String
    /// The query after `?`, or `nil`.
    public let query: String?
    /// The request headers.
    public let headers: HTTPHeaders

    init(head: HTTPRequestHead) {
        method = head.method.rawValue
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(parts[0])
        query = parts.count > 1 ? String(parts[1]) : nil
        headers = head.headers
    }

    /// The first value of the header `name` (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        headers.first(name: name)
    }
}
