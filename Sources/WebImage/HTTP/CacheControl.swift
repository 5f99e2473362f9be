import Foundation
import NIOHTTP1

/// The `Cache-Control` directives of a response that a private cache acts on.
struct CacheControl {
    /// `max-age`, in seconds.
    var maxAge: TimeInterval?
    /// `no-cache` (or `must-revalidate` with `max-age=0`): revalidate before every use.
    var noCache = false
    /// `no-store`: keep nothing on disk.
    var noStore = false
    /// `stale-while-revalidate`, in seconds.
    var staleWhileRevalidate: TimeInterval?
    /// `stale-if-error`, in seconds.
    var staleIfError: TimeInterval?

    /// Reads every `Cache-Control` field of `headers` (and `Pragma: no-cache` without one).
    init(_ headers: HTTPHeaders) {
        let fields = headers[canonicalForm: "Cache-Control"]
        if fields.isEmpty, headers[canonicalForm: "Pragma"].contains(where: { $0.lowercased() == "no-cache" }) {
            noCache = true
        }
        var mustRevalidate = false
        for field in fields {
            let parts = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let name = parts[0].lowercased()
            let value = parts.count > 1 ? TimeInterval(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) : nil
            switch name {
            case "max-age": maxAge = value.map { max(0, $0) }
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = true
            case "stale-while-revalidate": staleWhileRevalidate = value
            case "stale-if-error": staleIfError = value
            default: break
            }
        }
        if mustRevalidate {
            // A stale entry may not be served on error or while revalidating.
            staleIfError = nil
            staleWhileRevalidate = nil
        }
    }
}
