import Foundation
import NIOHTTP1

extension DiskCacheEntryMetadata {
    /// The facts of an HTTP response worth keeping with its cached bytes: content type,
    /// validators, and its freshness by RFC 9111 — lifetime from `Cache-Control: max-age`,
    /// else `Expires` − `Date`, else (when nothing forbids a heuristic) 10 % of `Date` −
    /// `Last-Modified` capped at a day; minus the response's age (`Age`, or the `Date`
    /// skew); `no-cache` and the `stale-while-revalidate` and `stale-if-error` windows.
    init(response: DownloadResponseHead, receivedAt now: Date = Date()) {
        let headers = response.headers
        let directives = CacheControl(headers)
        let httpDate = { (text: String) in HTTPDate.date(from: text) }
        let date = headers.first(name: "Date").flatMap(httpDate)
        let lastModified = headers.first(name: "Last-Modified")
        var lifetime: TimeInterval?
        if let maxAge = directives.maxAge {
            lifetime = maxAge
        } else if let expires = headers.first(name: "Expires") {
            // An invalid Expires (such as "0") means already expired.
            lifetime = httpDate(expires).map { $0.timeIntervalSince(date ?? now) } ?? 0
        } else if let modified = lastModified.flatMap(httpDate), !directives.noCache {
            lifetime = min(max(0, (date ?? now).timeIntervalSince(modified)) / 10, 24 * 60 * 60)
        }
        var expiration: Date?
        if let lifetime {
            let ageHeader = headers.first(name: "Age").flatMap(TimeInterval.init) ?? 0
            let apparentAge = max(0, now.timeIntervalSince(date ?? now))
            expiration = now.addingTimeInterval(lifetime - max(ageHeader, apparentAge))
        }
        self.init(
            contentType: headers.first(name: "Content-Type"),
            entityTag: headers.first(name: "ETag"),
            lastModified: lastModified,
            expirationDate: expiration,
            requiresRevalidation: directives.noCache ? true : nil,
            staleWhileRevalidate: directives.staleWhileRevalidate,
            staleIfError: directives.staleIfError
        )
    }

    /// This metadata refreshed by a `304 Not Modified`: its freshness from the new
    /// response, its validators and type kept unless the `304` sent new ones.
    func refreshed(by response: DownloadResponseHead, receivedAt now: Date = Date()) -> DiskCacheEntryMetadata {
        var refreshed = DiskCacheEntryMetadata(response: response, receivedAt: now)
        refreshed.contentType = refreshed.contentType ?? contentType
        refreshed.entityTag = refreshed.entityTag ?? entityTag
        refreshed.lastModified = refreshed.lastModified ?? lastModified
        refreshed.variedRequestHeaders = variedRequestHeaders
        refreshed.extendedData = extendedData
        return refreshed
    }

    /// The request headers `response` varies on (its `Vary` names, lowercased) with the
    /// values in `requestHeaders`; `nil` when it does not vary.
    static func variedRequestHeaders(of response: DownloadResponseHead, requestHeaders: [String: String]) -> [String: String]? {
        let names = response.headers["Vary"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        guard !names.isEmpty else { return nil }
        if names.contains("*") { return ["*": ""] }
        return Dictionary(names.map { ($0, value(of: $0, in: requestHeaders)) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether a request sending `requestHeaders` may use this entry: it sends the same
    /// values of the headers the entry varies on.
    func matchesVariedHeaders(of requestHeaders: [String: String]) -> Bool {
        guard let variedRequestHeaders else { return true }
        return variedRequestHeaders.allSatisfy { name, value in name != "*" && Self.value(of: name, in: requestHeaders) == value }
    }

    /// The value of the header `name` (lowercased) in `headers`, "" when absent.
    private static func value(of name: String, in headers: [String: String]) -> String {
        headers.first { $0.key.lowercased() == name }?.value ?? ""
    }

    /// Whether the response forbids storing it (`Cache-Control: no-store`).
    static func forbidsStoring(_ response: DownloadResponseHead) -> Bool {
        CacheControl(response.headers).noStore
    }
}
