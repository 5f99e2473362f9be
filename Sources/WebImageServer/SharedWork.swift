import NIOConcurrencyHelpers

/// Runs each piece of work once however many callers ask for it at the same moment: the
/// first caller for a key starts the work, and the callers that ask for the same key
/// while it runs wait for the same outcome — its value, or its error.
///
/// The work runs in a task of its own, so that no caller's cancellation reaches it: a
/// caller that is cancelled leaves, and the work is cancelled only when every caller
/// waiting for it has left. The last caller out forgets the work, so that the next
/// caller for its key starts it again.
final class SharedWork<Key: Hashable & Sendable, Value: Sendable, Failure: Error>: Sendable {
    private struct Entry {
        let task: Task<Result<Value, Failure>, Never>
        var waiting: Int
    }

    private let running = NIOLockedValueBox<[Key: Entry]>([:])
    private let onJoin: @Sendable () -> Void

    /// Work shared by key; `onJoin` is called each time a caller joins work already running.
    init(onJoin: @escaping @Sendable () -> Void = {}) {
        self.onJoin = onJoin
    }

    /// The callers waiting for the work under `key` now.
    func waiting(for key: Key) -> Int {
        running.withLockedValue { $0[key]?.waiting ?? 0 }
    }

    /// The outcome of the work under `key`: of the work already running under it, or of
    /// `work`, started now.
    ///
    /// A caller cancelled while it waits leaves at once, but its call returns with the
    /// others when the work ends (or, when it was the last, when the cancelled work ends).
    ///
    /// - Throws: The work's error, for every caller that waited for it.
    func run(_ key: Key, _ work: @escaping @Sendable () async throws(Failure) -> Value) async throws(Failure) -> Value {
        let (task, joined) = running.withLockedValue { running in
            if let existing = running[key] {
                running[key]?.waiting += 1
                return (existing.task, true)
            }
            let task = Task { () -> Result<Value, Failure> in
                do throws(Failure) {
                    return .success(try await work())
                } catch {
                    return .failure(error)
                }
            }
            running[key] = Entry(task: task, waiting: 1)
            return (task, false)
        }
        if joined { onJoin() }
        // This caller leaves once: when it is cancelled while it waits, or when the work ends.
        let left = NIOLockedValueBox(false)
        let leaveOnce = { @Sendable in
            let first = left.withLockedValue { left in
                defer { left = true }
                return !left
            }
            if first { self.leave(key, task: task) }
        }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            leaveOnce()
        }
        leaveOnce()
        return try result.get()
    }

    /// Counts one caller that waited for `task` under `key` as gone; the last one out
    /// forgets the work, and cancels it if it has not ended.
    private func leave(_ key: Key, task: Task<Result<Value, Failure>, Never>) {
        let abandoned = running.withLockedValue { running -> Bool in
            guard let entry = running[key], entry.task == task else { return false }
            guard entry.waiting > 1 else {
                running[key] = nil
                return true
            }
            running[key]?.waiting -= 1
            return false
        }
        if abandoned { task.cancel() }
    }
}
