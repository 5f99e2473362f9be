import Foundation
import NIOCore
import WebImage

/// The results the server has made, kept on disk with their entity tags, and the most
/// recently used of them in memory too: a request's result is looked up here first (a hit
/// takes no transform slot and no memory budget), and a miss is made once, on the
/// request's deadline, however many identical requests miss at the same time
/// (``SharedWork``), then kept.
///
/// A hit on disk larger than ``largestReadWhole`` is answered from its file a piece at a
/// time (``ResultFile``), never read whole: a cached result does not cost a copy of itself
/// per client, however slowly the clients read. Smaller hits, and results just made, are
/// answered from one buffer that every answer shares.
///
/// Room Results/: results kept and answered — the result cache, its files, the bodies answers write and their download names.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
struct ResultCache: Sendable {
    /// A result's body and the metadata it is answered and kept with (its type and ETag).
    typealias Entry = (body: ResultBody, metadata: DiskCacheEntryMetadata)

    /// The largest hit on disk read whole (and kept in memory, when the memory tier is on):
    /// 1 MiB; larger ones stream from their files.
    static let largestReadWhole = 1 << 20

    private let storage: any ImageDiskStorage
    /// Where `storage` keeps an entry's bytes, when it keeps them in a file of their own.
    private let filePath: (@Sendable (String) -> String)?
    /// The results answered from memory, bounded by their bytes; `nil` keeps none there.
    /// A hit here answers without a trip to the blocking-I/O threads, a file read and the
    /// decoding of its metadata: most of a cached answer's work.
    private let memory: MemoryCache<String, Entry>?
    private let metrics: ImageServerMetrics
    private let deadline: RequestDeadline
    /// The results being made, by key: identical requests that miss at the same time share
    /// one piece of work and its answer.
    private let work: SharedWork<String, Entry, ImageServerError>

    /// Keeps results in `storage`, and up to `memoryLimit` bytes of them in memory (0 for
    /// none), counting hits, misses and shared work in `metrics`; a miss waits for its
    /// result within `deadline`.
    init(storage: any ImageDiskStorage, memoryLimit: Int, metrics: ImageServerMetrics, deadline: RequestDeadline) {
        self.storage = storage
        if let disk = storage as? DiskCache {
            filePath = { @Sendable key in disk.cachePath(forKey: key) }
        } else {
            filePath = nil
        }
        memory = memoryLimit > 0 ? MemoryCache(costLimit: memoryLimit) : nil
        self.metrics = metrics
        self.deadline = deadline
        work = SharedWork { metrics.recordResultWorkJoined() }
    }

    /// The result kept under `key`, or the one `make` makes, then kept — on the request's
    /// deadline, and shared with every identical request that misses at the same time.
    /// A request that missed just before another's work kept the result finds it when its
    /// own work starts, instead of making it again.
    func result(
        forKey key: String, make: @escaping @Sendable () async throws(ImageServerError) -> TransformRun.Encoded
    ) async throws(ImageServerError) -> Entry {
        let cached = try await StageSpan.run("cache.read") { span throws(ImageServerError) in
            let cached = try await entry(forKey: key)
            span?.attributes["webimage.cache.outcome"] = cached == nil ? "miss" : "hit"
            return cached
        }
        metrics.recordResultCache(hit: cached != nil)
        if let cached { return cached }
        // Each request waits on its own deadline; the work is shared by every request for
        // the key and cancelled only when all of them have left.
        let cache = self
        return try await deadline.run { () throws(ImageServerError) in
            try await cache.work.run(key) { () throws(ImageServerError) in
                if let cached = try await cache.entry(forKey: key) { return cached }
                cache.metrics.recordResultWork()
                let made = try await make()
                return await StageSpan.run("cache.write") { span in
                    span?.attributes["webimage.cache.bytes"] = made.data.count
                    return await cache.keep(made, forKey: key)
                }
            }
        }
    }

    private func entry(forKey key: String) async throws(ImageServerError) -> Entry? {
        if let remembered = memory?.value(forKey: key) { return remembered }
        let (storage, filePath) = (self.storage, self.filePath)
        let entry = try await BlockingIO.run { () -> Entry? in
            guard let metadata = storage.metadata(forKey: key) else { return nil }
            if let path = filePath?(key), let file = ResultFile(path: path), file.count > Self.largestReadWhole {
                return (.file(file), metadata)
            }
            guard let data = storage.data(forKey: key) else { return nil }
            return (.bytes(ByteBuffer(bytes: data)), metadata)
        }
        if let entry, case .bytes = entry.body { memory?.setValue(entry, forKey: key, cost: entry.body.count) }
        return entry
    }

    /// Keeps a result under `key` with its type and entity tag (a result that cannot be
    /// kept is still answered).
    private func keep(_ encoded: TransformRun.Encoded, forKey key: String) async -> Entry {
        let metadata = DiskCacheEntryMetadata(contentType: encoded.format.mimeType, entityTag: "\"\(encoded.digest)\"")
        let storage = self.storage
        try? await BlockingIO.run { () throws(ImageServerError) in
            try? storage.store(encoded.data, forKey: key, metadata: metadata)
        }
        let entry = (ResultBody.bytes(ByteBuffer(bytes: encoded.data)), metadata)
        memory?.setValue(entry, forKey: key, cost: encoded.data.count)
        return entry
    }

    /// The entity tag's digest of a result: the first 16 bytes of its SHA-256, in hex.
    static func digest(of data: Data) -> String {
        SHA256.hash(data).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The `Cache-Control` of a result: public for `maxAge` seconds, or for the seconds left
    /// before `expires` (seconds since 1970) when that is sooner, so that no cache in front
    /// of the server keeps answering a URL after its deadline.
    static func cacheControl(maxAge: Int, expires: Int?, now: Date) -> String {
        guard let expires else { return "public, max-age=\(maxAge)" }
        let left = max(0, Int((Double(expires) - now.timeIntervalSince1970).rounded(.down)))
        return "public, max-age=\(min(maxAge, left))"
    }

    /// Whether an `If-None-Match` value names `eTag` (or is `*`): the client's copy is
    /// current, and is answered 304.
    static func matches(_ ifNoneMatch: String, _ eTag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingWhitespace()
            return trimmed == "*" || trimmed == eTag || trimmed == "W/\(eTag)"
        }
    }
}
