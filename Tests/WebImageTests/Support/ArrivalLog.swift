import NIOConcurrencyHelpers

/// Values that arrive from other threads, kept in arrival order, and a way for a test to
/// wait until enough of them (or the right ones) have arrived.
final class ArrivalLog<Element: Sendable>: Sendable {
    private struct State {
        var elements: [Element] = []
        var waiters: [(condition: @Sendable ([Element]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = NIOLockedValueBox(State())

    /// The values so far, in arrival order.
    var elements: [Element] { state.withLockedValue { $0.elements } }

    /// How many values arrived.
    var count: Int { state.withLockedValue { $0.elements.count } }

    /// Records one value and wakes the waiters it satisfies.
    func append(_ element: Element) {
        let ready = state.withLockedValue { state in
            state.elements.append(element)
            let elements = state.elements
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.condition(elements) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready {
            continuation.resume()
        }
    }

    /// Returns once `count` values have arrived.
    func wait(for count: Int) async {
        await wait { $0.count >= count }
    }

    /// Returns once `condition` holds for the values so far.
    func wait(until condition: @escaping @Sendable ([Element]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLockedValue { state in
                if condition(state.elements) { return true }
                state.waiters.append((condition, continuation))
                return false
            }
            if done {
                continuation.resume()
            }
        }
    }
}
