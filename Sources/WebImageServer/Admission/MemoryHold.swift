import NIOConcurrencyHelpers

/// Bytes of the process-wide memory budget held past the handler: for a response body
/// that is written after the route returns. The bytes go back to the budget when the hold
/// is released or, at the latest, when the last reference to it goes — the body written,
/// or dropped unwritten because the client left.
final class MemoryHold: Sendable {
    private let memory: MemoryAdmission
    private let held: NIOLockedValueBox<Int>

    /// Holds `bytes` admitted by `memory` (the caller has admitted them).
    init(_ bytes: Int, of memory: MemoryAdmission) {
        self.memory = memory
        held = NIOLockedValueBox(bytes)
    }

    /// Gives back what is held beyond `bytes`.
    func keep(_ bytes: Int) {
        let surplus = held.withLockedValue { held in
            let surplus = max(0, held - bytes)
            held -= surplus
            return surplus
        }
        if surplus > 0 { memory.release(surplus) }
    }

    /// Gives the bytes back now; a second call gives back nothing.
    func release() {
        keep(0)
    }

    deinit {
        release()
    }
}
