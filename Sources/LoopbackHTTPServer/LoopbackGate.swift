import NIOConcurrencyHelpers

/// A one-shot gate: routes wait on it, a test opens it. Waiting on an open gate returns at once.
///
/// Gates let a test order events (stall a response until the client has reacted) without
/// racing a clock.
public final class LoopbackGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    /// Creates a closed gate.
    public init() {}

    /// Whether ``open()`` has been called.
    public var isOpen: Bool {
        state.withLockedValue { $0.isOpen }
    }

    /// Opens the gate and releases every waiter.
    public func open() {
        let waiters = state.withLockedValue { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Returns once the gate is open.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLockedValue { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow {
                continuation.resume()
            }
        }
    }
}
