import NIOConcurrencyHelpers
import WebImage

/// How many sources are fetched at once, over all hosts and from each host, so that slow
/// sources on one host cannot take every fetch. A fetch past either limit waits in turn
/// until one ends, or until the requests waiting for it are gone.
final class SourceFetchLimits: Sendable {
    /// The most fetches at once.
    let maximum: Int
    /// The most fetches at once from one host.
    let maximumPerHost: Int
    private let state = NIOLockedValueBox(State())
    private let metrics: ImageServerMetrics

    private struct Waiter {
        let id: Int
        let host: String
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var running = 0
        var runningByHost: [String: Int] = [:]
        var nextID = 0
        var waiters: [Waiter] = []
    }

    /// Limits of `maximum` fetches at once, `maximumPerHost` from one host, with the
    /// fetches waiting counted in `metrics`.
    init(maximum: Int, maximumPerHost: Int, metrics: ImageServerMetrics) {
        self.maximum = max(1, maximum)
        self.maximumPerHost = max(1, maximumPerHost)
        self.metrics = metrics
    }

    /// The fetches running now from `host`.
    func running(from host: String) -> Int { state.withLockedValue { $0.runningByHost[host] ?? 0 } }

    /// Runs `fetch` as one of the fetches from `host`, once the limits let it.
    ///
    /// - Throws: `ImageError.Code.deadlineExceeded` when the task is cancelled while it
    ///   waits (its requests are gone or past their deadline), or what `fetch` throws.
    func run(from host: String, _ fetch: () async throws(ImageError) -> Void) async throws(ImageError) {
        let id = state.withLockedValue { state -> Int? in
            if state.waiters.isEmpty, fits(host, in: state) {
                take(host, in: &state)
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
                        if state.waiters.isEmpty, fits(host, in: state) {
                            take(host, in: &state)
                            return true
                        }
                        state.waiters.append(Waiter(id: id, host: host, continuation: continuation))
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
                throw ImageError(.deadlineExceeded, "the fetch from \(host) waited for a free fetch until no request wanted it")
            }
        }
        defer { finish(host) }
        try await fetch()
    }

    /// Counts a fetch from `host` as ended, and starts the waiting ones the limits now let
    /// through, in the order they came.
    private func finish(_ host: String) {
        let started = state.withLockedValue { state -> [CheckedContinuation<Bool, Never>] in
            state.running -= 1
            state.runningByHost[host, default: 1] -= 1
            if state.runningByHost[host] == 0 { state.runningByHost[host] = nil }
            var started: [CheckedContinuation<Bool, Never>] = []
            var index = 0
            while index < state.waiters.count, state.running < maximum {
                let waiter = state.waiters[index]
                if fits(waiter.host, in: state) {
                    take(waiter.host, in: &state)
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
        metrics.recordFetchesWaiting(state.withLockedValue { $0.waiters.count })
    }

    private func fits(_ host: String, in state: State) -> Bool {
        state.running < maximum && state.runningByHost[host, default: 0] < maximumPerHost
    }

    private func take(_ host: String, in state: inout State) {
        state.running += 1
        state.runningByHost[host, default: 0] += 1
    }
}
