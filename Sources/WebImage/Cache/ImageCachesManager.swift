import Foundation
import NIOConcurrencyHelpers

/// Several caches behind one ``ImageCaching`` — SDWebImage 5's `SDImageCachesManager`.
///
/// The caches are kept in priority order: the first is the lowest, the last (the one
/// added last) the highest. Each kind of operation follows its own ``Policy``; the
/// defaults are SDWebImage's: queries and `contains` ask the caches one after another,
/// highest first, stores go to the highest cache only, removes and clears reach every
/// cache at once.
public final class ImageCachesManager: ImageCaching {
    /// Which caches an operation reaches, and how.
    public enum Policy: String, Sendable, Hashable, CaseIterable {
        /// The highest-priority cache (the last) alone.
        case highestOnly
        /// The lowest-priority cache (the first) alone.
        case lowestOnly
        /// Every cache at once. A query or `contains` answers with the first hit to arrive
        /// and cancels the others.
        case concurrent
        /// One cache after another, highest first. A query or `contains` stops at the first
        /// hit; other operations reach every cache in turn.
        case serial
        /// Every cache at once, waiting for all of them. A query or `contains` answers with
        /// the hit of the highest-priority cache that has one.
        case all
    }

    private struct State {
        var caches: [any ImageCaching]
        var queryPolicy = Policy.serial
        var storePolicy = Policy.highestOnly
        var removePolicy = Policy.concurrent
        var containsPolicy = Policy.serial
        var clearPolicy = Policy.concurrent
    }

    private let state: NIOLockedValueBox<State>

    /// Creates a manager over `caches`, lowest priority first.
    public init(caches: [any ImageCaching] = []) {
        state = NIOLockedValueBox(State(caches: caches))
    }

    /// The caches, lowest priority first.
    public var caches: [any ImageCaching] {
        get { state.withLockedValue { $0.caches } }
        set { state.withLockedValue { $0.caches = newValue } }
    }

    /// Adds `cache` as the highest-priority cache.
    public func addCache(_ cache: any ImageCaching) {
        state.withLockedValue { $0.caches.append(cache) }
    }

    /// How queries reach the caches; ``Policy/serial`` by default.
    public var queryPolicy: Policy {
        get { state.withLockedValue { $0.queryPolicy } }
        set { state.withLockedValue { $0.queryPolicy = newValue } }
    }

    /// How stores reach the caches; ``Policy/highestOnly`` by default.
    public var storePolicy: Policy {
        get { state.withLockedValue { $0.storePolicy } }
        set { state.withLockedValue { $0.storePolicy = newValue } }
    }

    /// How removes reach the caches; ``Policy/concurrent`` by default.
    public var removePolicy: Policy {
        get { state.withLockedValue { $0.removePolicy } }
        set { state.withLockedValue { $0.removePolicy = newValue } }
    }

    /// How `contains` reaches the caches; ``Policy/serial`` by default.
    public var containsPolicy: Policy {
        get { state.withLockedValue { $0.containsPolicy } }
        set { state.withLockedValue { $0.containsPolicy = newValue } }
    }

    /// How clears reach the caches; ``Policy/concurrent`` by default.
    public var clearPolicy: Policy {
        get { state.withLockedValue { $0.clearPolicy } }
        set { state.withLockedValue { $0.clearPolicy = newValue } }
    }

    /// The caches `policy` reaches, highest priority first.
    private func caches(for policy: Policy) -> [any ImageCaching] {
        let caches = self.caches
        switch policy {
        case .highestOnly: return caches.last.map { [$0] } ?? []
        case .lowestOnly: return caches.first.map { [$0] } ?? []
        case .concurrent, .serial, .all: return caches.reversed()
        }
    }

    // MARK: ImageCaching

    /// Asks the caches the ``queryPolicy`` names; `nil` when none has `key`.
    public func image(
        forKey key: String, scope: ImageCacheType, decodeOptions: ImageDecodeOptions?
    ) async throws(ImageError)
        -> ImageCacheResult?
    {
        try await image(forKey: key, scope: scope, decodeOptions: decodeOptions, storeScope: .all)
    }

    /// Asks the caches the ``queryPolicy`` names, passing `storeScope` to each (as
    /// SDWebImage's `SDImageCachesManager` passes the query's options on), so that a disk
    /// hit goes into a cache's memory only when `storeScope` includes
    /// ``ImageCacheType/memory``; `nil` when none has `key`.
    public func image(
        forKey key: String, scope: ImageCacheType, decodeOptions: ImageDecodeOptions?, storeScope: ImageCacheType
    ) async throws(ImageError)
        -> ImageCacheResult?
    {
        let policy = queryPolicy
        let targets = caches(for: policy)
        let result = await firstHit(in: targets, policy: policy) { cache in
            try? await cache.image(forKey: key, scope: scope, decodeOptions: decodeOptions, storeScope: storeScope)
        }
        if Task.isCancelled { throw ImageError(.cancelled, "the cache query was cancelled") }
        return result
    }

    /// Stores in the caches the ``storePolicy`` names; throws the first failure after every
    /// cache was tried.
    public func store(
        _ image: Image?, data: Data?, forKey key: String, scope: ImageCacheType, metadata: DiskCacheEntryMetadata?
    ) async throws(ImageError) {
        let policy = storePolicy
        let failures = await everyCache(caches(for: policy), policy: policy) { cache -> ImageError? in
            do throws(ImageError) {
                try await cache.store(image, data: data, forKey: key, scope: scope, metadata: metadata)
                return nil
            } catch {
                return error
            }
        }
        if let failure = failures.compactMap({ $0 }).first { throw failure }
    }

    /// Removes `key` from the caches the ``removePolicy`` names.
    public func removeImage(forKey key: String, scope: ImageCacheType) async {
        let policy = removePolicy
        _ = await everyCache(caches(for: policy), policy: policy) { await $0.removeImage(forKey: key, scope: scope) }
    }

    /// Where the caches the ``containsPolicy`` names hold `key`.
    public func containsImage(forKey key: String, scope: ImageCacheType) async -> ImageCacheType {
        let policy = containsPolicy
        let found = await firstHit(in: caches(for: policy), policy: policy) { cache -> ImageCacheType? in
            let type = await cache.containsImage(forKey: key, scope: scope)
            return type == .none ? nil : type
        }
        return found ?? .none
    }

    /// Empties the caches the ``clearPolicy`` names.
    public func clear(scope: ImageCacheType) async {
        let policy = clearPolicy
        _ = await everyCache(caches(for: policy), policy: policy) { await $0.clear(scope: scope) }
    }

    /// The first synchronous memory hit among the caches the ``queryPolicy`` names,
    /// highest first.
    public func memoryResult(forKey key: String, decodeOptions: ImageDecodeOptions?) -> ImageCacheResult? {
        for cache in caches(for: queryPolicy) {
            if let hit = cache.memoryResult(forKey: key, decodeOptions: decodeOptions) { return hit }
        }
        return nil
    }

    /// The HTTP facts of the highest cache (among those queries reach) that keeps some.
    public func metadata(forKey key: String) async -> DiskCacheEntryMetadata? {
        for cache in caches(for: queryPolicy) {
            if let metadata = await cache.metadata(forKey: key) { return metadata }
        }
        return nil
    }

    /// Refreshes the HTTP facts in every cache.
    public func refreshMetadata(_ metadata: DiskCacheEntryMetadata, forKey key: String) async {
        _ = await everyCache(caches.reversed(), policy: .concurrent) { await $0.refreshMetadata(metadata, forKey: key) }
    }

    /// The policy of the highest-priority cache; ``ImageCachePolicy/untilExpired`` with no cache.
    public var cachePolicy: ImageCachePolicy {
        caches.last?.cachePolicy ?? .untilExpired
    }

    // MARK: Running a policy

    /// The answer of `body` for `targets` (highest first) under `policy`: the first
    /// non-`nil` in turn (`serial`, and the single-cache policies), the first to arrive
    /// (`concurrent`, which then cancels the rest), or the highest-priority one once all
    /// answered (`all`).
    private func firstHit<Value: Sendable>(
        in targets: [any ImageCaching],
        policy: Policy,
        _ body: @escaping @Sendable (any ImageCaching) async -> Value?
    ) async -> Value? {
        switch policy {
        case .highestOnly, .lowestOnly, .serial:
            for cache in targets {
                if Task.isCancelled { return nil }
                if let value = await body(cache) { return value }
            }
            return nil
        case .concurrent:
            return await withTaskGroup(of: Value?.self) { group in
                for cache in targets {
                    group.addTask { await body(cache) }
                }
                for await value in group {
                    if let value {
                        group.cancelAll()
                        return value
                    }
                }
                return nil
            }
        case .all:
            let answers = await withTaskGroup(of: (Int, Value?).self) { group in
                for (rank, cache) in targets.enumerated() {
                    group.addTask { (rank, await body(cache)) }
                }
                var answers = [Value?](repeating: nil, count: targets.count)
                for await (rank, value) in group {
                    answers[rank] = value
                }
                return answers
            }
            return answers.lazy.compactMap { $0 }.first
        }
    }

    /// Runs `body` for every cache in `targets` (highest first): one after another for
    /// `serial`, at once otherwise; returns the answers in `targets`' order.
    private func everyCache<Value: Sendable>(
        _ targets: [any ImageCaching],
        policy: Policy,
        _ body: @escaping @Sendable (any ImageCaching) async -> Value
    ) async -> [Value] {
        guard policy == .concurrent || policy == .all, targets.count > 1 else {
            var answers: [Value] = []
            for cache in targets {
                answers.append(await body(cache))
            }
            return answers
        }
        return await withTaskGroup(of: (Int, Value).self) { group in
            for (rank, cache) in targets.enumerated() {
                group.addTask { (rank, await body(cache)) }
            }
            var answers: [(Int, Value)] = []
            for await answer in group {
                answers.append(answer)
            }
            return answers.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
