import Foundation

/// The rules that let a cached entry answer a load, in one place: the failed-URL
/// blacklist, HTTP's `Vary` and freshness, and when a stale entry may answer after an
/// error. The asynchronous load (`ImageManager+Loading.swift`) and the synchronous hit
/// (`ImageManager+SynchronousHit.swift`) both ask them.
extension ImageManager {
    /// Whether a load of `url` with `options` is refused because the URL failed before
    /// (SDWebImage's failed-URL blacklist): it is in the failed set and `options` do not
    /// retry failed URLs.
    func refusesAsFailed(_ url: URL, options: ImageOptions) -> Bool {
        failedURLs.contains(url) && !options.contains(.retryFailed)
    }

    /// The error a load of `url` ends with at once because the URL failed before, unless
    /// `options` retry failed URLs.
    func blacklistRefusal(of url: URL, options: ImageOptions) -> ImageError? {
        guard refusesAsFailed(url, options: options) else { return nil }
        return ImageError(.blacklisted, "\(url.absoluteString) failed before; use retryFailed to try it again")
    }

    /// The key of the variant of the entry at `key` that a request sending
    /// `requestHeaders` gets, when the entry varies on the headers `varied` names and this
    /// request sends other values of them.
    static func variantKey(_ key: String, varyingOn varied: [String: String], requestHeaders: [String: String]) -> String {
        let values = varied.keys.sorted().map { name in
            "\(name)=\(requestHeaders.first { $0.key.lowercased() == name }?.value ?? "")"
        }
        return "\(key)#vary(\(values.joined(separator: "&")))"
    }

    /// How HTTP's rules let an entry stored with `metadata` be used now, or `nil` when they
    /// do not apply: no metadata, the cache's `policy` is ``ImageCachePolicy/untilExpired``,
    /// the URL is not `http(s)`, or the load refreshes anyway.
    func httpFreshness(
        of metadata: DiskCacheEntryMetadata?, url: URL, options: ImageOptions, policy: ImageCachePolicy
    )
        -> ImageCacheFreshness?
    {
        // Cheapest first: most memory hits of a synchronous load stop at the metadata.
        guard let metadata, policy == .http, !options.contains(.refreshCached),
            let scheme = url.scheme,
            scheme.caseInsensitiveCompare("http") == .orderedSame
                || scheme.caseInsensitiveCompare("https") == .orderedSame
        else { return nil }
        return metadata.freshness()
    }

    /// Whether a failed revalidation lets a stale entry answer within `stale-if-error`: a
    /// 5xx or a network failure, not a 4xx.
    static func allowsStaleAnswer(after error: ImageError) -> Bool {
        if let status = error.statusCode { return status >= 500 }
        switch error.code {
        case .timedOut, .deadlineExceeded, .cannotConnect, .cannotFindHost, .connectionLost: return true
        default: return false
        }
    }

    /// Whether a cached image stored with `metadata` may answer a load of `url` with
    /// `headers` and `options` at once under ``ImageCachePolicy/http``: its `Vary` headers
    /// match and it is still fresh.
    func mayAnswerUnderHTTPPolicy(with metadata: DiskCacheEntryMetadata?, headers: [String: String], options: ImageOptions, url: URL) -> Bool {
        guard metadata?.matchesVariedHeaders(of: headers) ?? true else { return false }
        return (httpFreshness(of: metadata, url: url, options: options, policy: .http) ?? .fresh) == .fresh
    }
}
