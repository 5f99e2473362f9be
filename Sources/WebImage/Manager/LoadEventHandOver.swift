import NIOConcurrencyHelpers

/// Carries a load's events from the task that runs it to the reader of
/// ``ImageManager/events(for:)``, through a lock on both sides.
///
/// An `AsyncStream` hands a value to a reader that is already waiting by resuming its
/// continuation. When that happens before the reader's task has suspended, the Swift
/// runtime takes a path ThreadSanitizer does not see, and it reported a freshly decoded
/// image's fields as racing with their first read (the same blind spot `DecodingWorkers.run`
/// works around). Here the event itself always crosses through the lock, so the order is
/// visible; the continuation only wakes the reader.
final class LoadEventHandOver: Sendable {
    private struct State {
        var events: [ImageLoadEvent] = []
        var nextIndex = 0
        var isFinished = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    /// Hands `event` to the reader.
    func send(_ event: ImageLoadEvent) {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.isFinished else { return nil }
            state.events.append(event)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Ends the events: the reader gets those already sent, then `nil`.
    func finish() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.isFinished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The next event, waiting for it; `nil` once the events have ended.
    func next() async -> ImageLoadEvent? {
        while true {
            if let answer = state.withLockedValue({ state -> ImageLoadEvent?? in
                if state.nextIndex < state.events.count {
                    let event = state.events[state.nextIndex]
                    state.nextIndex += 1
                    if state.nextIndex == state.events.count {
                        state.events.removeAll(keepingCapacity: true)
                        state.nextIndex = 0
                    }
                    return .some(event)
                }
                return state.isFinished ? .some(nil) : nil
            }) {
                return answer
            }
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLockedValue { state -> Bool in
                    if state.nextIndex < state.events.count || state.isFinished { return true }
                    state.waiter = waiter
                    return false
                }
                if resumeNow { waiter.resume() }
            }
        }
    }
}
