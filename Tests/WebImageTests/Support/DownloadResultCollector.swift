import NIOConcurrencyHelpers
@testable import WebImage

/// Collects the results of the callback API and lets a test wait for a number of them.
final class DownloadResultCollector: Sendable {
    private struct State {
        var results: [Result<ImageLoadResult, ImageError>] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = NIOLockedValueBox(State())

    var results: [Result<ImageLoadResult, ImageError>] { state.withLockedValue { $0.results } }

    var errors: [ImageError] {
        results.compactMap { result in
            if case .failure(let error) = result { return error }
            return nil
        }
    }

    var images: [Image] {
        results.compactMap { try? $0.get().image }
    }

    func record(_ result: Result<ImageLoadResult, ImageError>) {
        let ready = state.withLockedValue { state in
            state.results.append(result)
            let count = state.results.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready {
            continuation.resume()
        }
    }

    /// Returns once `count` results have arrived.
    func wait(for count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLockedValue { state in
                if state.results.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if done {
                continuation.resume()
            }
        }
    }
}
