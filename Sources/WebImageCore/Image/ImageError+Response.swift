import Foundation

extension ImageError {
    /// The head of an HTTP response an error is about: its status, headers and URL.
    ///
    /// Headers are kept as one value per name, in the name's spelling as received, with the
    /// values of a repeated header joined by `", "` (as Foundation's `allHeaderFields`
    /// does); ``value(forHeader:)`` finds a name whatever its case.
    public struct Response: Sendable, Hashable {
        /// The HTTP status code.
        public var statusCode: Int
        /// The headers, by name as received.
        public var headers: [String: String]
        /// The URL that answered, as a string.
        public var url: String

        /// Creates a response head from its status, headers in the order received (a
        /// repeated name's values are joined) and URL.
        public init(statusCode: Int, headers: [(name: String, value: String)], url: String) {
            self.statusCode = statusCode
            var joined: [String: String] = [:]
            var spelling: [String: String] = [:]
            for (name, value) in headers {
                let name = spelling[name.lowercased(), default: name]
                spelling[name.lowercased()] = name
                joined[name] = joined[name].map { "\($0), \(value)" } ?? value
            }
            self.headers = joined
            self.url = url
        }

        /// The value of the header `name`, compared without regard to case.
        public func value(forHeader name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }
}
