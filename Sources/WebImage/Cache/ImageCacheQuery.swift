import NIOConcurrencyHelpers

/// A disk lookup in flight, returned by ``ImageCache/queryImage(forKey:scope:decodeOptions:callbackQueue:completion:)``.
///
/// Cancelling it stops the lookup if it has not run yet and guarantees that the
/// completion is never called afterwards.
public final class ImageCacheQuery: Sendable {
    private enum State {
        case running
        case cancelled
        case finished
    }

    private let state = NIOLockedValueBox(State.running)

    init() {}

    /// Whether ``cancel()`` was called before the query finished.
    public var isCancelled: Bool {
        state.withLockedValue { $0 == .cancelled }
    }

    /// Cancels the query: its completion will not be called.
    public func cancel() {
        state.withLockedValue { state in
            if state == .running { state = .cancelled }
        }
    }

    /// Marks the query finished, returning `false` when it was cancelled first (and the
    /// completion must not run).
    func finish() -> Bool {
        state.withLockedValue { state in
            guard state == .running else { return false }
            state = .finished
            return true
        }
    }
}
