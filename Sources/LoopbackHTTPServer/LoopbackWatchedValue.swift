import Dispatch
import NIOConcurrencyHelpers

/// A value that changes on other threads, and tasks that wait for a condition on it.
///
/// A wait ends when its condition holds, or throws when its task is cancelled or its time
/// is up, whichever comes first: a test whose request never arrives fails with
/// ``LoopbackWaitTimedOut`` instead of hanging the whole run, and the code after the wait
/// never runs on a condition that does not hold.
public final class LoopbackWatchedValue<Value: Sendable>: Sendable {
    private struct Waiter {
        let condition: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var value: Value
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state: NIOLockedValueBox<State>

    /// Starts watching `value`.
    public init(_ value: Value) {
        state = NIOLockedValueBox(State(value: value))
    }

    /// Reads the value.
    public func read<Result>(_ body: (Value) -> Result) -> Result {
        state.withLockedValue { body($0.value) }
    }

    /// Changes the value, then wakes the waits whose condition now holds.
    @discardableResult
    public func update<Result>(_ change: (inout Value) -> Result) -> Result {
        let (result, ready) = state.withLockedValue { state in
            let result = change(&state.value)
            let value = state.value
            let satisfied = state.waiters.filter { $0.value.condition(value) }
            for id in satisfied.keys { state.waiters[id] = nil }
            return (result, satisfied.values.map(\.continuation))
        }
        for continuation in ready { continuation.resume(returning: true) }
        return result
    }

    /// Returns once `condition` holds for the value; throws ``LoopbackWaitTimedOut`` once
    /// `timeout` has passed, or `CancellationError` when the task is cancelled.
    public func wait(timeout: Duration = .seconds(900), until condition: @escaping @Sendable (Value) -> Bool) async throws {
        let id = state.withLockedValue { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let timer = DispatchWorkItem { [weak self] in self?.release(id) }
        defer { timer.cancel() }
        let held = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // Checked under the lock, so a cancellation handler that ran before the
                // waiter was added cannot leave it waiting.
                let answer: Bool? = state.withLockedValue { state in
                    if condition(state.value) { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return nil
                }
                if let answer {
                    continuation.resume(returning: answer)
                } else {
                    let (seconds, attoseconds) = timeout.components
                    let nanoseconds = Int(min(seconds, 1 << 32)) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: timer)
                }
            }
        } onCancel: {
            release(id)
        }
        guard held else {
            try Task.checkCancellation()
            throw LoopbackWaitTimedOut(timeout: timeout)
        }
    }

    /// Ends wait `id` unsatisfied, if it is still waiting.
    private func release(_ id: UInt64) {
        let waiter = state.withLockedValue { $0.waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: false)
    }
}
