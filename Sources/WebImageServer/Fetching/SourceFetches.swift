import Foundation
import WebImage

/// Brings each source's bytes into the disk cache once, however many requests ask at the
/// same moment: the first request starts the fetch and the others wait for it, so none of
/// them can find the transfer finished but the file not yet written and fetch again.
///
/// Fetches run within ``SourceFetchLimits``, counted against the address the source's host
/// resolves to and its registrable domain: the host is resolved (and checked by the
/// ``SourceAddressPolicy``) before the fetch waits for a slot, so a lookup that is slow holds
/// no fetch slot, and the downloader connects to the same answer. A fetch that every waiting request has left
/// (their clients went away, or their deadlines passed) is cancelled, whether it runs or
/// still waits for its turn (see ``SharedWork``).
///
/// Room Fetching/: a source from its host name to the source cache — the address policy, lookups, per-origin limits and the one fetch many requests share.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
final class SourceFetches: Sendable {
    private let fetches = SharedWork<URL, Void, ImageError>()
    private let manager: ImageManager
    private let metrics: ImageServerMetrics
    private let limits: SourceFetchLimits
    private let policy: SourceAddressPolicy
    private let maxSourcePixels: Int

    /// Fetches through `manager` within `limits`, each counted against the origin `policy`
    /// resolves its host to, counting fetches in `metrics`; a source whose header declares
    /// more than `maxSourcePixels` pixels is refused before anything is decoded.
    init(
        manager: ImageManager, limits: SourceFetchLimits, policy: SourceAddressPolicy, metrics: ImageServerMetrics, maxSourcePixels: Int
    ) {
        self.manager = manager
        self.limits = limits
        self.policy = policy
        self.metrics = metrics
        self.maxSourcePixels = maxSourcePixels
    }

    /// Brings `source` into the source cache. A failed source is tried again by the next
    /// request, not blacklisted.
    ///
    /// - Throws: ``ImageServerError`` with the class of the source's failure.
    func fetch(_ source: URL) async throws(ImageServerError) {
        var request = ImageRequest(url: source, options: .retryFailed)
        request.maxPixelCount = maxSourcePixels
        do throws(ImageError) {
            try await ensureOnDisk(request)
        } catch {
            throw ImageServerError(source: error)
        }
    }

    /// Makes sure the bytes of `request`'s source are in the disk cache.
    ///
    /// - Throws: The fetch's error, for every request that waited on it.
    func ensureOnDisk(_ request: ImageRequest) async throws(ImageError) {
        guard let url = request.url else { throw ImageError(.invalidURL, "the source URL is missing") }
        let manager = self.manager
        let metrics = self.metrics
        let limits = self.limits
        let policy = self.policy
        try await fetches.run(url) { () throws(ImageError) in
            // A source already on disk needs no lookup and no slot.
            if await manager.cache.containsImage(forKey: manager.cacheKey(for: request), scope: .disk) == .disk { return }
            // Resolved and checked before a slot is taken; redirects are checked where they
            // connect, within the slot.
            let address = try await StageSpan.run("lookup") { span throws(ImageError) in
                let address = try await policy.address(for: url)
                span?.attributes["server.address"] = url.host
                span?.attributes["network.peer.address"] = "\(address)"
                return address
            }
            let domain = RegistrableDomain(of: url.host ?? "")
            try await StageSpan.run("fetch") { span throws(ImageError) in
                span?.attributes["server.address"] = url.host
                try await limits.run(from: ["address \(address)", "domain \(domain)"]) { () throws(ImageError) in
                    if try await manager.storeDataInDiskCache(for: request) {
                        metrics.recordSourceFetch()
                    }
                }
            }
        }
    }
}
