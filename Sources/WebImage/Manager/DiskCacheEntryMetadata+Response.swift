import Foundation

extension DiskCacheEntryMetadata {
    /// The facts of an HTTP response worth keeping with its cached bytes: content type,
    /// validators, and the expiry `Cache-Control: max-age` (or else `Expires`) gives.
    init(response: DownloadResponse) {
        let headers = response.headers
        var expiration: Date?
        if let cacheControl = headers.first(name: "Cache-Control"),
           let maxAge = cacheControl.split(separator: ",")
               .map({ $0.trimmingCharacters(in: .whitespaces) })
               .first(where: { $0.lowercased().hasPrefix("max-age=") })
               .flatMap({ TimeInterval($0.dropFirst("max-age=".count)) }) {
            expiration = Date(timeIntervalSinceNow: maxAge)
        } else if let expires = headers.first(name: "Expires") {
            expiration = DiskCacheEntryMetadata.httpDateFormatter.date(from: expires)
        }
        self.init(
            contentType: headers.first(name: "Content-Type"),
            entityTag: headers.first(name: "ETag"),
            lastModified: headers.first(name: "Last-Modified"),
            expirationDate: expiration
        )
    }

    /// Parses HTTP dates (`Sun, 06 Nov 1994 08:49:37 GMT`).
    private static var httpDateFormatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }
}
