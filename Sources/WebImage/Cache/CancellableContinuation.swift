import NIOConcurrencyHelpers

/// Bridges a cancellable callback operation to `async`: resumes exactly once, with the
/// operation's value or with `ImageError.Code.cancelled` when the task is cancelled
/// first (which also cancels the operation).
final class CancellableContinuation<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<Value, ImageError>, Never>?
        var query: ImageCacheQuery?
        var isCancelled = false
    }

    private let state = NIOLockedValueBox(State())

    /// Starts the operation with a `resume` function and waits for its value.
    func wait(
        starting start: (_ resume: @escaping @Sendable (Value) -> Void) -> ImageCacheQuery
    ) async -> Result<Value, ImageError> {
        await withCheckedContinuation { continuation in
            let alreadyCancelled = state.withLockedValue { state in
                if !state.isCancelled { state.continuation = continuation }
                return state.isCancelled
            }
            if alreadyCancelled {
                continuation.resume(returning: .failure(Self.cancellation))
                return
            }
            let query = start { [self] value in
                take()?.resume(returning: .success(value))
            }
            state.withLockedValue { $0.query = query }
        }
    }

    /// Cancels the operation and resumes the waiter with a cancellation error.
    func cancel() {
        let (continuation, query) = state.withLockedValue { state in
            state.isCancelled = true
            let taken = (state.continuation, state.query)
            state.continuation = nil
            return taken
        }
        query?.cancel()
        continuation?.resume(returning: .failure(Self.cancellation))
    }

    private func take() -> CheckedContinuation<Result<Value, ImageError>, Never>? {
        state.withLockedValue { state in
            defer { state.continuation = nil }
            return state.continuation
        }
    }

    private static var cancellation: ImageError {
        ImageError(.cancelled, "the cache query was cancelled")
    }
}
