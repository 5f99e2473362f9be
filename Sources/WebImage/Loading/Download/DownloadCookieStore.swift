import Foundation
import NIOConcurrencyHelpers

/// The cookies an ``ImageDownloader`` keeps for ``ImageDownloaderOptions/handleCookies``:
/// what servers set with `Set-Cookie`, sent back on requests whose host and path match.
///
/// It understands `Domain`, `Path`, `Max-Age` (zero or less removes the cookie) and
/// `Secure`; cookies live as long as the downloader.
public final class DownloadCookieStore: Sendable {
    private struct Cookie: Hashable {
        var name: String
        var value: String
        var domain: String
        var matchesSubdomains: Bool
        var path: String
        var isSecure: Bool
    }

    private let cookies = NIOLockedValueBox<[Cookie]>([])

    /// Creates an empty store.
    public init() {}

    /// How many cookies the store holds.
    public var count: Int {
        cookies.withLockedValue { $0.count }
    }

    /// Forgets every cookie.
    public func removeAll() {
        cookies.withLockedValue { $0.removeAll() }
    }

    /// The `Cookie` header value for a request to `url`, or `nil` when no cookie matches.
    public func cookieHeader(for url: URL) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let path = url.path.isEmpty ? "/" : url.path
        let isSecure = url.scheme?.lowercased() == "https"
        let matching = cookies.withLockedValue { cookies in
            cookies.filter { cookie in
                let hostMatches = cookie.domain == host || (cookie.matchesSubdomains && host.hasSuffix("." + cookie.domain))
                let pathMatches = path == cookie.path || path.hasPrefix(cookie.path.hasSuffix("/") ? cookie.path : cookie.path + "/")
                return hostMatches && pathMatches && (isSecure || !cookie.isSecure)
            }
        }
        guard !matching.isEmpty else { return nil }
        return matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Stores the cookies of `Set-Cookie` header values received from `url`.
    public func store(setCookieHeaders headers: [String], from url: URL) {
        guard let host = url.host?.lowercased() else { return }
        for header in headers {
            guard let (cookie, isExpired) = Self.parse(header, host: host, requestPath: url.path) else { continue }
            cookies.withLockedValue { cookies in
                cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if !isExpired {
                    cookies.append(cookie)
                }
            }
        }
    }

    private static func parse(_ header: String, host: String, requestPath: String) -> (Cookie, Bool)? {
        let fields = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let pair = fields.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = String(pair[..<equals])
        guard !name.isEmpty else { return nil }
        let defaultPath = requestPath.lastIndex(of: "/").map { String(requestPath[..<$0]) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        var cookie = Cookie(
            name: name,
            value: String(pair[pair.index(after: equals)...]),
            domain: host,
            matchesSubdomains: false,
            path: defaultPath,
            isSecure: false
        )
        var isExpired = false
        for attribute in fields.dropFirst() {
            let parts = attribute.split(separator: "=", maxSplits: 1).map(String.init)
            let key = parts[0].lowercased()
            let value = parts.count > 1 ? parts[1] : ""
            switch key {
            case "domain":
                let domain = value.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
                guard host == domain || host.hasSuffix("." + domain) else { return nil }
                cookie.domain = domain
                cookie.matchesSubdomains = true
            case "path" where value.hasPrefix("/"):
                cookie.path = value
            case "max-age":
                isExpired = (Int(value) ?? 1) <= 0
            case "secure":
                cookie.isSecure = true
            default:
                break
            }
        }
        return (cookie, isExpired)
    }
}
