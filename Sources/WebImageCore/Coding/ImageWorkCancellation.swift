import Synchronization

/// A signal that work made of steps (the frames of an animated encode, the tries of a
/// size-limited encode, the candidates of a format choice) reads between its steps, and
/// stops at the next one once it is raised.
///
/// A step already running finishes: the C encoders cannot be interrupted inside a frame.
/// Give it to an encode as ``ImageEncodeOptions/cancellation``; raise it with ``cancel()``,
/// from any thread, or let ``following(isolation:_:)`` raise it when the calling task is cancelled.
/// Two signals are equal only when they are the same object.
public final class ImageWorkCancellation: Sendable, Hashable {
    private let raised = Atomic<Bool>(false)
    private let condition: (@Sendable () -> Bool)?

    /// A signal that is raised only by ``cancel()``.
    public init() {
        condition = nil
    }

    /// A signal that is raised by ``cancel()`` or whenever `condition` answers `true` (a
    /// deadline's clock, a flag of the caller's own); `condition` is asked at every step,
    /// from the thread that does the work.
    public init(when condition: @escaping @Sendable () -> Bool) {
        self.condition = condition
    }

    /// Raises the signal: the work stops at its next step.
    public func cancel() {
        raised.store(true, ordering: .relaxed)
    }

    /// Whether the signal is raised.
    public var isCancelled: Bool {
        raised.load(ordering: .relaxed) || condition?() == true
    }

    /// Throws when the signal is raised, naming the step that was not taken.
    ///
    /// - Throws: ``ImageError/Code/cancelled``.
    public func check(before step: @autoclosure () -> String) throws(ImageError) {
        guard isCancelled else { return }
        throw ImageError(.cancelled, "the work was cancelled before \(step())")
    }

    /// Runs `body` with a signal that is raised when the calling task is cancelled (at
    /// once, when it already is), for work that runs on a thread of its own.
    public static func following<Value>(
        isolation: isolated (any Actor)? = #isolation, _ body: (ImageWorkCancellation) async throws -> Value
    ) async rethrows -> Value {
        let cancellation = ImageWorkCancellation()
        return try await withTaskCancellationHandler {
            try await body(cancellation)
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Whether `lhs` and `rhs` are the same signal.
    public static func == (lhs: ImageWorkCancellation, rhs: ImageWorkCancellation) -> Bool {
        lhs === rhs
    }

    /// Hashes the signal's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
