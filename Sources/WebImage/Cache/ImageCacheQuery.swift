import NIOConcurrencyHelpers

/// A disk lookup in flight, returned by ``ImageCache/queryImage(forKey:scope:decodeOptions:callbackQueue:completion:)``.
///
/// The query answers exactly once: with what the disk held, or, when ``cancel()`` comes
/// first, with `ImageError.Code.cancelled` at once, on the cancelling thread, before
/// `cancel()` returns (SDWebImage 5 answers a cancelled query the same way). A cancelled
/// lookup that has not read the disk yet never reads it.
public final class ImageCacheQuery: Sendable {
    private enum State {
        case running
        case cancelled
        case finished
    }

    private let state = NIOLockedValueBox(State.running)
    private let answerCancellation: @Sendable () -> Void

    /// Creates a query that calls `answerCancellation` once if it is cancelled before it
    /// finished.
    init(answerCancellation: @escaping @Sendable () -> Void = {}) {
        self.answerCancellation = answerCancellation
    }

    /// Whether ``cancel()`` was called before the query finished.
    public var isCancelled: Bool {
        state.withLockedValue { $0 == .cancelled }
    }

    /// Cancels the query: unless it has already answered, it answers now, on this thread,
    /// with `ImageError.Code.cancelled`, and never again. Calling it again does nothing.
    public func cancel() {
        let wasRunning = state.withLockedValue { state -> Bool in
            guard state == .running else { return false }
            state = .cancelled
            return true
        }
        if wasRunning { answerCancellation() }
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
