import Foundation
import NIOConcurrencyHelpers

/// The process-wide memory budget: requests are admitted by the bytes their plans say they
/// will take, so that all the work in flight together stays under one figure whatever the
/// sources are.
///
/// A request that does not fit waits, in turn (first come, first admitted, so a large
/// request is not passed over for ever by small ones), for at most a bounded time, then
/// is refused 503. A request that would not fit even alone is refused 413 at once. Before
/// a request waits, memory kept only to be reused (the decoded sources) is given up for
/// it (see ``reclaim(using:)``).
///
/// Room Admission/: what a request may hold and when it may start — the memory budget, held bytes, transform slots and the request's deadline.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
final class MemoryAdmission: Sendable {
    /// The bytes all admitted work may hold together.
    let capacity: Int
    /// How long a request waits for room before it is refused.
    let wait: Duration
    private let state: NIOLockedValueBox<State>
    private let metrics: ImageServerMetrics
    private let reclaimer = NIOLockedValueBox<(@Sendable (Int) -> Void)?>(nil)

    private struct Waiter {
        let id: Int
        let bytes: Int
        let continuation: CheckedContinuation<Bool, Never>
        /// Refuses the waiter when its wait is over; cancelled once it is answered.
        let timer: Task<Void, Never>

        /// Answers the waiter, admitted or refused, and stops its timer.
        func answer(admitted: Bool) {
            timer.cancel()
            continuation.resume(returning: admitted)
        }
    }

    private struct State {
        let capacity: Int
        var reserved = 0
        var nextID = 0
        var waiters: [Waiter] = []

        /// Admits waiters from the front of the queue while they fit.
        mutating func admitWaiting() -> [Waiter] {
            var admitted: [Waiter] = []
            while let first = waiters.first, reserved + first.bytes <= capacity {
                reserved += first.bytes
                admitted.append(first)
                waiters.removeFirst()
            }
            return admitted
        }
    }

    /// A budget of `capacity` bytes whose requests wait at most `wait` for room, its use
    /// shown in `metrics`.
    init(capacity: Int, wait: Duration, metrics: ImageServerMetrics) {
        self.capacity = max(1, capacity)
        self.wait = wait
        self.metrics = metrics
        state = NIOLockedValueBox(State(capacity: self.capacity))
    }

    /// The bytes admitted work holds now.
    var reserved: Int { state.withLockedValue { $0.reserved } }

    /// The requests waiting for room now.
    var waiting: Int { state.withLockedValue { $0.waiters.count } }

    /// Lets `reclaim` give up memory kept only to be reused when a request does not fit:
    /// it is asked for the bytes the request lacks (beside those the waiting requests
    /// lack), before the request waits.
    func reclaim(using reclaim: @escaping @Sendable (_ bytes: Int) -> Void) {
        reclaimer.withLockedValue { $0 = reclaim }
    }

    /// Waits until `bytes` fit beside the work already admitted, and counts them.
    ///
    /// - Throws: ``ImageServerError`` 413 when `bytes` are over the whole budget, 503
    ///   (with the time waited in its detail) when no room was made within ``wait`` or the
    ///   task was cancelled while it waited.
    func admit(_ bytes: Int) async throws(ImageServerError) {
        let bytes = max(0, bytes)
        guard bytes <= capacity else {
            throw ImageServerError(
                .contentTooLarge, "the work would take more memory than the server has",
                detail: "planned \(bytes) bytes; the process-wide budget is \(capacity)")
        }
        defer { recordUse() }
        let lacking = state.withLockedValue { state in
            state.reserved + state.waiters.reduce(bytes) { $0 + $1.bytes } - capacity
        }
        if lacking > 0, let reclaim = reclaimer.withLockedValue({ $0 }) { reclaim(lacking) }
        let id: Int? = state.withLockedValue { state in
            if state.waiters.isEmpty, state.reserved + bytes <= capacity {
                state.reserved += bytes
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        let wait = self.wait
        let admitted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: wait)
                    if !Task.isCancelled { self?.giveUp(id) }
                }
                // Room may have been made, or the task cancelled, since the first look.
                let answer = state.withLockedValue { state -> Bool? in
                    if Task.isCancelled { return false }
                    if state.waiters.isEmpty, state.reserved + bytes <= capacity {
                        state.reserved += bytes
                        return true
                    }
                    state.waiters.append(Waiter(id: id, bytes: bytes, continuation: continuation, timer: timer))
                    return nil
                }
                if let answer {
                    timer.cancel()
                    continuation.resume(returning: answer)
                    return
                }
                recordUse()
            }
        } onCancel: {
            giveUp(id)
        }
        guard admitted else {
            throw ImageServerError(
                .serviceUnavailable, "the server is busy; try again shortly",
                detail: "waited \(wait) for \(bytes) bytes of memory; \(reserved) of \(capacity) are held")
        }
    }

    /// Gives back `bytes` admitted earlier, and admits the waiters they make room for.
    func release(_ bytes: Int) {
        let admitted = state.withLockedValue { state in
            state.reserved -= max(0, bytes)
            return state.admitWaiting()
        }
        for waiter in admitted { waiter.answer(admitted: true) }
        recordUse()
    }

    /// Takes waiter `id` out of the queue, refused, if it is still there; the waiters behind
    /// it may fit now.
    private func giveUp(_ id: Int) {
        let (refused, admitted) = state.withLockedValue { state -> (Waiter?, [Waiter]) in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return (nil, []) }
            let refused = state.waiters.remove(at: index)
            return (refused, state.admitWaiting())
        }
        refused?.answer(admitted: false)
        for waiter in admitted { waiter.answer(admitted: true) }
        recordUse()
    }

    /// Shows the budget's use now; under the lock, so that the last change is the one shown.
    private func recordUse() {
        state.withLockedValue { metrics.recordMemory(reserved: $0.reserved, waiting: $0.waiters.count) }
    }
}

extension MemoryAdmission {
    /// Runs `work` holding `bytes` of the budget (waiting for room as ``admit(_:)`` does);
    /// `work` may change what it holds through its argument (see ``resize(_:to:)``), and
    /// whatever it holds at the end is given back.
    func holding<Value>(
        _ bytes: Int, _ work: (inout Int) async throws(ImageServerError) -> Value
    ) async throws(ImageServerError) -> Value {
        try await admit(bytes)
        var held = bytes
        defer { release(held) }
        return try await work(&held)
    }

    /// Runs `work` holding `bytes` of the budget.
    func holding<Value>(_ bytes: Int, _ work: () async throws(ImageServerError) -> Value) async throws(ImageServerError) -> Value {
        try await holding(bytes) { (_: inout Int) throws(ImageServerError) in try await work() }
    }

    /// Changes what a request holds from `held` to `bytes`: gives back what it no longer
    /// needs, or waits for what it needs more.
    func resize(_ held: inout Int, to bytes: Int) async throws(ImageServerError) {
        if bytes > held {
            try await admit(bytes - held)
        } else {
            release(held - bytes)
        }
        held = bytes
    }
}
