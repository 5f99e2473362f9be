import NIOConcurrencyHelpers
@testable import WebImage

/// Collects the answers a target's completion receives and lets a test wait for a number
/// of them.
final class TargetResponseRecorder: Sendable {
    private struct State {
        var responses: [ImageResponse] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = NIOLockedValueBox(State())

    /// The answers so far, in arrival order.
    var responses: [ImageResponse] { state.withLockedValue { $0.responses } }

    /// The completion handler to pass to a target.
    var handler: @Sendable (ImageResponse) -> Void {
        { [self] response in record(response) }
    }

    func record(_ response: ImageResponse) {
        let ready = state.withLockedValue { state in
            state.responses.append(response)
            let count = state.responses.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready {
            continuation.resume()
        }
    }

    /// Returns once `count` answers have arrived.
    func wait(for count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLockedValue { state in
                if state.responses.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if done {
                continuation.resume()
            }
        }
    }
}
