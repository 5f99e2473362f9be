import NIOConcurrencyHelpers
import WebImage

/// The tier of decoded sources: each source's decode kept for ``lifetime`` after its last
/// use, so that the sizes a responsive page asks of one source (`srcset`, `<picture>`,
/// device pixel ratios) are made from one decode instead of one each.
///
/// - A decode is kept only when its source is shared: another request for it is under way
///   (``interested(in:asking:_:)``), or came within ``sightingWindow`` (a minute, or the lifetime
///   when longer: a sighting costs a key, a decode its pixels). A source asked for once is
///   decoded the usual way (``Lookup/alone``), at the size asked for and with the memory
///   that takes, and nothing is kept: a tier that kept every decode would hold up to a
///   lifetime's worth of sources for requests that never come (in the fit benchmark, one
///   size per source, it held 600 MiB where the server without it peaked at 125 MiB, and
///   cost 15 % more CPU: PNG decodes at full size instead of streaming into the resize).
/// - A request finds a decode held for its source that serves it (see
///   ``DecodedSource/serves(_:)``: the decode it asks for, the full-size source, or a larger
///   reduced decode that its resize scales down), or waits for such a decode under way for
///   another request, or is given a ``Ticket`` to decode it.
/// - Shrink-on-load picks the scale that serves the sizes asked for: a source whose coder
///   reads every pixel whatever the size asked for is decoded at full size (the request's
///   resize then makes the reduction the coder would have made), and any other is decoded
///   ``headroom`` times larger on each side than the size asked for (``stillWebPHeadroom``
///   for a still WebP), for the larger sizes asked beside it, and at least as large as the
///   largest size the requests under way for the source ask for: a page's sizes asked for
///   at once take one decode.
/// - A decode's pixels stay counted in the process-wide memory budget while the tier or a
///   request holds it (see ``DecodedSource``). The tier keeps at most ``capacity`` bytes,
///   evicts the least recently used decode first, and gives decodes up when admission needs
///   room for a request (``reclaim(_:)``).
final class DecodedSources: Sendable {
    /// How many times larger, on each side, a shared source is decoded than the size asked
    /// for: a page's sizes are usually ordered, and each is within twice the last.
    static let headroom = 2
    /// ``headroom`` for a still WebP. libwebp reconstructs every macroblock whatever the
    /// size asked for and scales only its output, so a larger decode costs little more,
    /// and one four times the first size a page asks serves the page's larger sizes too:
    /// in the srcset benchmark (320 to 1280 px wide) a source took one decode instead of
    /// 1.7, for about 5 % less CPU a result (Benchmarks/README.md). libjpeg-turbo reduces
    /// in its inverse DCT, so a smaller JPEG decode does less work: a JPEG keeps
    /// ``headroom``.
    static let stillWebPHeadroom = 4
    /// The least time a source decoded alone is remembered, so that a request for it
    /// within that time decodes for the tier.
    static let leastSightingWindow = Duration.seconds(60)

    /// The bytes of decoded pixels the tier keeps.
    let capacity: Int
    /// How long a decode is kept after its last use.
    let lifetime: Duration
    /// How long a source decoded alone is remembered: ``lifetime``, at least
    /// ``leastSightingWindow``.
    let sightingWindow: Duration
    private let state = NIOLockedValueBox(State())
    private let metrics: ImageServerMetrics

    /// What the decodes of one source have in common: the source's cache key and the decode
    /// options other than the size asked for.
    fileprivate struct Key: Hashable, Sendable {
        let source: String
        let options: ImageDecodeOptions

        /// The key of a decode of `source` with `options`.
        init(source: String, options: ImageDecodeOptions) {
            self.source = source
            var options = options
            options.thumbnailPixelSize = nil
            options.preserveAspectRatio = true
            options.coversThumbnailBox = false
            self.options = options
        }
    }

    /// A decode the tier keeps, with the moment it expires and the order of its last use.
    private struct Held {
        let decode: DecodedSource
        var expires: ContinuousClock.Instant
        var lastUse: Int
    }

    /// A decode under way for a request, and the requests waiting for it by their numbers.
    private struct Pending {
        let id: Int
        let options: ImageDecodeOptions
        var waiters: [Int: CheckedContinuation<DecodedSource?, Never>] = [:]
    }

    private struct State {
        var held: [Key: [Held]] = [:]
        var pending: [Key: [Pending]] = [:]
        /// The runs under way for each source, by their numbers, with the decode options
        /// each asks for (see ``DecodedSources/interested(in:asking:_:)``).
        var interest: [String: [Int: ImageDecodeOptions]] = [:]
        /// The sources decoded alone, each until a sighting window after that decode: a
        /// request for one of them before then decodes for the tier.
        var sightings: [String: ContinuousClock.Instant] = [:]
        /// The count of ``sightings`` at which the expired ones are next dropped.
        var sightingsPruneCount = 1024
        var bytes = 0
        var uses = 0
        var nextID = 0
        var sweeping = false

        /// Notes that `source` was decoded alone at `now`, for a request that comes before
        /// `expires`; drops the expired sightings once they have doubled since the last time,
        /// so there are never many more than one window's worth of requests.
        mutating func sight(_ source: String, now: ContinuousClock.Instant, expires: ContinuousClock.Instant) {
            sightings[source] = expires
            guard sightings.count >= sightingsPruneCount else { return }
            sightings = sightings.filter { $0.value > now }
            sightingsPruneCount = max(1024, 2 * sightings.count)
        }

        /// Takes the held decodes that `remove` picks out of the tier, and returns them.
        mutating func remove(where remove: (Held) -> Bool) -> [DecodedSource] {
            var removed: [DecodedSource] = []
            for key in Array(held.keys) {
                held[key]?.removeAll { entry in
                    guard remove(entry) else { return false }
                    removed.append(entry.decode)
                    return true
                }
                if held[key]?.isEmpty == true { held[key] = nil }
            }
            bytes -= removed.reduce(0) { $0 + $1.bytes }
            return removed
        }

        /// Takes the least recently used decodes out of the tier until `bytes` of theirs are
        /// taken or none is left, and returns them.
        mutating func removeLeastRecentlyUsed(_ bytes: Int) -> [DecodedSource] {
            let entries = held.values.joined().sorted { $0.lastUse < $1.lastUse }
            var freed = 0
            var oldest = Set<ObjectIdentifier>()
            for entry in entries where freed < bytes {
                freed += entry.decode.bytes
                oldest.insert(ObjectIdentifier(entry.decode))
            }
            return remove { oldest.contains(ObjectIdentifier($0.decode)) }
        }
    }

    /// A decode a request was asked to make for the tier, with the options to make it with;
    /// the request gives the tier its decode (``keep(_:_:storing:)``) or gives it up
    /// (``abandon(_:)``).
    struct Ticket: Sendable {
        fileprivate let key: Key
        fileprivate let id: Int
        /// The options to decode with: those the request asked for, or a larger decode that
        /// serves them (see ``DecodedSources``).
        let options: ImageDecodeOptions
    }

    /// What the tier answers a request: a decode that serves it, a ticket to decode one, or
    /// that the request decodes alone.
    enum Lookup: Sendable {
        /// A decode, held or just made for another request, that serves the request.
        case decoded(DecodedSource)
        /// No decode serves the request: it decodes with the ticket's options.
        case decode(Ticket)
        /// No other request for the source is under way or came lately: the request decodes
        /// the usual way, and the tier keeps nothing.
        case alone
    }

    /// A tier keeping at most `capacity` bytes of decodes, each for `lifetime` after its
    /// last use, counted in `metrics`.
    init(capacity: Int, lifetime: Duration, metrics: ImageServerMetrics) {
        self.capacity = max(0, capacity)
        self.lifetime = lifetime
        sightingWindow = max(lifetime, Self.leastSightingWindow)
        self.metrics = metrics
    }

    /// The bytes of the decodes the tier keeps now.
    var bytes: Int { state.withLockedValue { $0.bytes } }

    /// Runs `body`, a request's fetch and run for the source under `source` that decodes it
    /// with `options`, counted as under way for that source until it returns: a look-up of
    /// the same source meanwhile, by another request, finds it shared, and decodes it large
    /// enough for `options` too.
    func interested<Result>(
        in source: String, asking options: ImageDecodeOptions, _ body: () async throws(ImageServerError) -> Result
    ) async throws(ImageServerError) -> Result {
        let id = state.withLockedValue { state in
            state.nextID += 1
            state.interest[source, default: [:]][state.nextID] = options
            return state.nextID
        }
        defer {
            state.withLockedValue { state in
                state.interest[source]?[id] = nil
                if state.interest[source]?.isEmpty == true { state.interest[source] = nil }
            }
        }
        return try await body()
    }

    /// A decode of the source under `source` that serves `options`, held or under way, a
    /// ticket to decode one, or ``Lookup/alone`` when the source is not shared (see
    /// ``DecodedSources``); `headroom` is how many times larger, on each side, than the
    /// size asked for the tier's decode is made, for a coder that does less work for a
    /// smaller size (``headroom`` or ``stillWebPHeadroom``), `nil` to decode at full size.
    ///
    /// - Throws: ``ImageServerError`` 503 when the request was cancelled while it waited
    ///   for another request's decode.
    func lookUp(source: String, options: ImageDecodeOptions, headroom: Int?) async throws(ImageServerError) -> Lookup {
        let key = Key(source: source, options: options)
        while true {
            let found = state.withLockedValue { state -> (held: DecodedSource?, pending: Int?, ticket: Ticket?, alone: Bool) in
                let now = ContinuousClock.now
                // The smallest decode held that serves the request: the least to resize.
                let held = state.held[key] ?? []
                let serving = held.indices.filter { held[$0].expires > now && held[$0].decode.serves(options) }
                if let index = serving.min(by: { held[$0].decode.bytes < held[$1].decode.bytes }) {
                    state.uses += 1
                    state.held[key]?[index].expires = now.advanced(by: lifetime)
                    state.held[key]?[index].lastUse = state.uses
                    return (held[index].decode, nil, nil, false)
                }
                if let pending = state.pending[key]?.first(where: { Self.decoding(with: $0.options, serves: options) }) {
                    return (nil, pending.id, nil, false)
                }
                let askedAgain = state.held[key] != nil || state.pending[key] != nil
                let sighted = state.sightings[key.source].map { $0 > now } ?? false
                let underWay = state.interest[key.source].map { Array($0.values) } ?? []
                guard askedAgain || sighted || underWay.count > 1 else {
                    state.sight(key.source, now: now, expires: now.advanced(by: sightingWindow))
                    return (nil, nil, nil, true)
                }
                state.nextID += 1
                let alongside = underWay.filter { Key(source: key.source, options: $0) == key }
                let decodeOptions = Self.decodeOptions(for: options, alongside: alongside, headroom: headroom)
                state.pending[key, default: []].append(Pending(id: state.nextID, options: decodeOptions))
                return (nil, nil, Ticket(key: key, id: state.nextID, options: decodeOptions), false)
            }
            if let held = found.held {
                metrics.recordDecodedSource(hit: true)
                return .decoded(held)
            }
            if let ticket = found.ticket {
                metrics.recordDecodedSource(hit: false)
                return .decode(ticket)
            }
            if found.alone {
                metrics.recordDecodedSource(hit: false)
                return .alone
            }
            if let pending = found.pending, let decoded = await wait(for: pending, under: key) {
                metrics.recordDecodedSource(hit: true)
                return .decoded(decoded)
            }
            // The decode waited for was given up: look again, unless this request is over.
            if Task.isCancelled {
                throw ImageServerError(.serviceUnavailable, "the request was cancelled", detail: "while it waited for a decode of its source")
            }
        }
    }

    /// Gives the tier the decode `ticket` asked for, for the requests waiting for it, and
    /// keeps it when `storing` (admission has no request waiting for room) and it fits in
    /// ``capacity`` (evicting the least recently used decodes for it).
    func keep(_ ticket: Ticket, _ decode: DecodedSource, storing: Bool) {
        let (waiters, evicted, startsSweeping) = state.withLockedValue { state in
            let waiters = Self.removePending(ticket.id, under: ticket.key, from: &state)
            guard storing, decode.bytes <= capacity else { return (waiters, [DecodedSource](), false) }
            let now = ContinuousClock.now
            var evicted = state.remove { $0.expires <= now }
            evicted += state.removeLeastRecentlyUsed(state.bytes + decode.bytes - capacity)
            state.uses += 1
            state.held[ticket.key, default: []].append(Held(decode: decode, expires: now.advanced(by: lifetime), lastUse: state.uses))
            state.bytes += decode.bytes
            let startsSweeping = !state.sweeping
            state.sweeping = true
            record(evicted, in: state)
            return (waiters, evicted, startsSweeping)
        }
        for waiter in waiters { waiter.resume(returning: decode) }
        if startsSweeping { sweepWhileHeld() }
        Self.giveBack(evicted)
    }

    /// Gives up the decode `ticket` asked for: the requests waiting for it look again.
    func abandon(_ ticket: Ticket) {
        let waiters = state.withLockedValue { Self.removePending(ticket.id, under: ticket.key, from: &$0) }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// Evicts the least recently used decodes until `bytes` of theirs are evicted or none
    /// is kept: admission calls it when a request does not fit. A decode a request still
    /// reads gives its bytes back when that request is done.
    func reclaim(_ bytes: Int) {
        guard bytes > 0 else { return }
        let evicted = state.withLockedValue { state in
            let evicted = state.removeLeastRecentlyUsed(bytes)
            record(evicted, in: state)
            return evicted
        }
        Self.giveBack(evicted)
    }

    /// Waits for the decode `id` under `key`: its image, or `nil` when it was given up or
    /// this request was cancelled.
    private func wait(for id: Int, under key: Key) async -> DecodedSource? {
        let waiter = state.withLockedValue { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DecodedSource?, Never>) in
                let waiting = state.withLockedValue { state -> Bool in
                    guard !Task.isCancelled, let index = state.pending[key]?.firstIndex(where: { $0.id == id }) else { return false }
                    state.pending[key]![index].waiters[waiter] = continuation
                    return true
                }
                if !waiting { continuation.resume(returning: nil) }
            }
        } onCancel: {
            let continuation = state.withLockedValue { state -> CheckedContinuation<DecodedSource?, Never>? in
                guard let index = state.pending[key]?.firstIndex(where: { $0.id == id }) else { return nil }
                return state.pending[key]![index].waiters.removeValue(forKey: waiter)
            }
            continuation?.resume(returning: nil)
        }
    }

    /// Evicts expired decodes as they expire, until the tier keeps none.
    private func sweepWhileHeld() {
        Task { [weak self] in
            var next = self?.sweep()
            while let deadline = next {
                try? await Task.sleep(until: deadline, clock: .continuous)
                next = self?.sweep()
            }
        }
    }

    /// Evicts the decodes expired now, and returns when the next one expires; `nil` (and
    /// sweeping stops) when the tier keeps none.
    private func sweep() -> ContinuousClock.Instant? {
        let (evicted, next) = state.withLockedValue { state in
            let now = ContinuousClock.now
            let evicted = state.remove { $0.expires <= now }
            let next = state.held.values.joined().map(\.expires).min()
            if next == nil { state.sweeping = false }
            record(evicted, in: state)
            return (evicted, next)
        }
        Self.giveBack(evicted)
        return next
    }

    /// Counts `evicted` and shows the bytes `state` keeps; under the lock, so that the
    /// last change is the one shown.
    private func record(_ evicted: [DecodedSource], in state: State) {
        metrics.recordDecodedSourceEvictions(evicted.count, bytesHeld: state.bytes)
    }

    /// Lets the evicted decodes go, out of the tier's lock: each gives its bytes back to
    /// the memory budget now, or when the last request reading it is done.
    private static func giveBack(_ evicted: consuming [DecodedSource]) {
        _ = consume evicted
    }

    /// Takes the pending decode `id` under `key` out of `state`, and returns its waiters.
    private static func removePending(_ id: Int, under key: Key, from state: inout State) -> [CheckedContinuation<DecodedSource?, Never>] {
        guard let index = state.pending[key]?.firstIndex(where: { $0.id == id }) else { return [] }
        let pending = state.pending[key]!.remove(at: index)
        if state.pending[key]?.isEmpty == true { state.pending[key] = nil }
        return Array(pending.waiters.values)
    }

    /// Whether a decode with `decoding` serves a request that asks for `wanted`, by their
    /// options alone: the same options, a full-size decode, or a reduced decode of the same
    /// shape into a box at least as large.
    private static func decoding(with decoding: ImageDecodeOptions, serves wanted: ImageDecodeOptions) -> Bool {
        if decoding == wanted { return true }
        guard decoding.scaleDownLimitBytes == nil, wanted.scaleDownLimitBytes == nil else { return false }
        guard let box = decoding.thumbnailPixelSize else { return true }
        guard let wantedBox = wanted.thumbnailPixelSize, decoding.preserveAspectRatio, wanted.preserveAspectRatio else { return false }
        return box.width >= wantedBox.width && box.height >= wantedBox.height && (decoding.coversThumbnailBox || !wanted.coversThumbnailBox)
    }

    /// The options to decode with for a request that asks for `wanted` while requests
    /// asking for `alongside` are under way for the same source, `headroom` times the size
    /// asked for or at full size when `nil` (see ``DecodedSources``).
    private static func decodeOptions(
        for wanted: ImageDecodeOptions, alongside: [ImageDecodeOptions], headroom: Int?
    ) -> ImageDecodeOptions {
        guard let box = wanted.thumbnailPixelSize, wanted.scaleDownLimitBytes == nil else { return wanted }
        var options = wanted
        guard let headroom else {
            options.thumbnailPixelSize = nil
            options.preserveAspectRatio = true
            options.coversThumbnailBox = false
            return options
        }
        guard wanted.preserveAspectRatio else { return wanted }
        let largest = Int(Int32.max)
        var width = min(largest, box.width * headroom)
        var height = min(largest, box.height * headroom)
        // A request under way that the decode can serve (same shape, no byte limit) widens it
        // to its box; one that needs a full-size decode is left to make its own.
        for other in alongside {
            guard other.preserveAspectRatio, other.scaleDownLimitBytes == nil, other.coversThumbnailBox == wanted.coversThumbnailBox,
                let otherBox = other.thumbnailPixelSize
            else { continue }
            width = max(width, otherBox.width)
            height = max(height, otherBox.height)
        }
        options.thumbnailPixelSize = PixelSize(width: width, height: height)
        return options
    }
}
