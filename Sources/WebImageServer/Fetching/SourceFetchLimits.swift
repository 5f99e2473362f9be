import NIOConcurrencyHelpers
import WebImage

/// How many sources are fetched at once, over all origins and from each origin, so that slow
/// sources on one origin cannot take every fetch. A fetch names its origin by several keys
/// — the address it connects to and the host's registrable domain (``RegistrableDomain``)
/// — and counts against each, so that neither many names for one address nor many
/// subdomains of one domain multiply an attacker's share. A fetch that fits every limit
/// starts at once, whoever waits for a full origin; one past a limit waits in turn until a
/// fetch ends, or until the requests waiting for it are gone.
final class SourceFetchLimits: Sendable {
    /// The most fetches at once.
    let maximum: Int
    /// The most fetches at once from one origin key.
    let maximumPerHost: Int
    private let state = NIOLockedValueBox(State())
    private let metrics: ImageServerMetrics

    private struct Waiter {
        let id: Int
        let origins: [String]
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var running = 0
        var runningByOrigin: [String: Int] = [:]
        var nextID = 0
        var waiters: [Waiter] = []
    }

    /// Limits of `maximum` fetches at once, `maximumPerHost` for each origin key, with the
    /// fetches waiting counted in `metrics`.
    init(maximum: Int, maximumPerHost: Int, metrics: ImageServerMetrics) {
        self.maximum = max(1, maximum)
        self.maximumPerHost = max(1, maximumPerHost)
        self.metrics = metrics
    }

    /// The fetches waiting now for a limit.
    var waitingCount: Int { state.withLockedValue { $0.waiters.count } }

    /// The fetches running now that count against the origin key `origin`.
    func running(from origin: String) -> Int { state.withLockedValue { $0.runningByOrigin[origin] ?? 0 } }

    /// Runs `fetch` as one of the fetches from `origins` (the keys it counts against), once
    /// the limits let it.
    ///
    /// A fetch that fits starts at once even while others wait: a waiter is only ever
    /// blocked by its own origins' limits (a free fetch is handed to the first waiter that
    /// fits as soon as it frees), so starting one that fits passes no one who could run.
    ///
    /// - Throws: `ImageError.Code.deadlineExceeded` when the task is cancelled while it
    ///   waits (its requests are gone or past their deadline), or what `fetch` throws.
    func run(from origins: [String], _ fetch: () async throws(ImageError) -> Void) async throws(ImageError) {
        let id = state.withLockedValue { state -> Int? in
            if fits(origins, in: state) {
                take(origins, in: &state)
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        if let id {
            let started = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    // A fetch may have ended, or the task been cancelled, since the first look.
                    let answer = state.withLockedValue { state -> Bool? in
                        if Task.isCancelled { return false }
                        if fits(origins, in: state) {
                            take(origins, in: &state)
                            return true
                        }
                        state.waiters.append(Waiter(id: id, origins: origins, continuation: continuation))
                        return nil
                    }
                    if let answer { continuation.resume(returning: answer) }
                    recordWaiting()
                }
            } onCancel: {
                let refused = state.withLockedValue { state -> CheckedContinuation<Bool, Never>? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
                refused?.resume(returning: false)
                recordWaiting()
            }
            guard started else {
                let origin = origins.joined(separator: ", ")
                throw ImageError(.deadlineExceeded, "the fetch from \(origin) waited for a free fetch until no request wanted it")
            }
        }
        defer { finish(origins) }
        try await fetch()
    }

    /// Counts a fetch from `origins` as ended, and starts the waiting ones the limits now
    /// let through, in the order they came.
    private func finish(_ origins: [String]) {
        let started = state.withLockedValue { state -> [CheckedContinuation<Bool, Never>] in
            state.running -= 1
            for origin in Set(origins) {
                state.runningByOrigin[origin, default: 1] -= 1
                if state.runningByOrigin[origin] == 0 { state.runningByOrigin[origin] = nil }
            }
            var started: [CheckedContinuation<Bool, Never>] = []
            var index = 0
            while index < state.waiters.count, state.running < maximum {
                let waiter = state.waiters[index]
                if fits(waiter.origins, in: state) {
                    take(waiter.origins, in: &state)
                    started.append(waiter.continuation)
                    state.waiters.remove(at: index)
                } else {
                    index += 1
                }
            }
            return started
        }
        for continuation in started { continuation.resume(returning: true) }
        recordWaiting()
    }

    private func recordWaiting() {
        metrics.recordFetchesWaiting(waitingCount)
    }

    private func fits(_ origins: [String], in state: State) -> Bool {
        state.running < maximum && origins.allSatisfy { state.runningByOrigin[$0, default: 0] < maximumPerHost }
    }

    private func take(_ origins: [String], in state: inout State) {
        state.running += 1
        for origin in Set(origins) { state.runningByOrigin[origin, default: 0] += 1 }
    }
}
