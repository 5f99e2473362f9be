import NIOConcurrencyHelpers
@testable import WebImage

/// Collects the answers of the manager's callback API and lets a test wait for a number of them.
final class ImageResponseRecorder: Sendable {
    private struct State {
        var responses: [ImageResponse] = []
        var waiters: [(condition: @Sendable ([ImageResponse]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = NIOLockedValueBox(State())

    /// The answers so far, in arrival order.
    var responses: [ImageResponse] { state.withLockedValue { $0.responses } }

    /// How many answers arrived.
    var count: Int { state.withLockedValue { $0.responses.count } }

    /// Records one answer; pass it as a completion.
    func record(_ response: ImageResponse) {
        let ready = state.withLockedValue { state in
            state.responses.append(response)
            let responses = state.responses
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.condition(responses) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready {
            continuation.resume()
        }
    }

    /// Returns once `count` answers have arrived.
    func wait(for count: Int) async {
        await wait { $0.count >= count }
    }

    /// Returns once an answer with ``ImageResponse/isFinished`` has arrived.
    func waitForFinishedResponse() async {
        await wait { $0.contains(where: \.isFinished) }
    }

    /// Returns once `condition` holds for the answers so far.
    func wait(until condition: @escaping @Sendable ([ImageResponse]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLockedValue { state in
                if condition(state.responses) { return true }
                state.waiters.append((condition, continuation))
                return false
            }
            if done {
                continuation.resume()
            }
        }
    }
}
