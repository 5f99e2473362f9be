import NIOConcurrencyHelpers

/// The slots of work: how many requests decode, transform and encode at once. A request
/// takes one only for that work — never while it waits for its source or reads a result
/// already made — and is answered 503 at once when none is free.
final class TransformSlots: Sendable {
    /// The most requests at work at once.
    let maximum: Int
    private let taken = NIOLockedValueBox(0)

    /// Slots for `maximum` requests at once.
    init(maximum: Int) {
        self.maximum = maximum
    }

    /// The slots taken now.
    var count: Int { taken.withLockedValue { $0 } }

    /// Runs `work` holding a slot.
    ///
    /// - Throws: ``ImageServerError`` 503 ("busy") at once when every slot is taken, or
    ///   what `work` throws.
    func withSlot<Value>(_ work: () async throws(ImageServerError) -> Value) async throws(ImageServerError) -> Value {
        let maximum = self.maximum
        let acquired = taken.withLockedValue { count in
            guard count < maximum else { return false }
            count += 1
            return true
        }
        guard acquired else {
            throw ImageServerError(.serviceUnavailable, "the server is busy; try again shortly", detail: "all \(maximum) transform slots are taken")
        }
        defer { taken.withLockedValue { $0 -= 1 } }
        return try await work()
    }
}
