import Foundation
import NIOConcurrencyHelpers

/// A request's deadline (``ImageServerConfiguration/requestTimeout``): past it, the request
/// is answered 504 and its work is cancelled. The work's slot and memory are given back
/// when the work itself ends, so that nothing admitted is counted out while it still runs.
struct RequestDeadline: Sendable {
    /// The seconds a request's work may take.
    let timeout: TimeInterval

    /// Runs `work` on the deadline.
    ///
    /// - Throws: ``ImageServerError`` 504 (one a fallback image may answer for) when the
    ///   deadline passes first, or what `work` throws.
    func run<Value: Sendable>(
        _ work: @escaping @Sendable () async throws(ImageServerError) -> Value
    ) async throws(ImageServerError) -> Value {
        let answer = NIOLockedValueBox<CheckedContinuation<Result<Value, ImageServerError>, Never>?>(nil)
        // The timer ends with the work, so that no request leaves a sleeping task behind.
        let timer = NIOLockedValueBox<Task<Void, Never>?>(nil)
        let timeout = self.timeout
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, ImageServerError>, Never>) in
            answer.withLockedValue { $0 = continuation }
            let running = Task { () -> Void in
                let result: Result<Value, ImageServerError>
                do throws(ImageServerError) {
                    result = .success(try await work())
                } catch {
                    result = .failure(error)
                }
                answer.withLockedValue { $0.take() }?.resume(returning: result)
                timer.withLockedValue { $0 }?.cancel()
            }
            let sleeper = Task {
                try? await Task.sleep(for: .seconds(timeout))
                guard let continuation = answer.withLockedValue({ $0.take() }) else { return }
                running.cancel()
                var error = ImageServerError(.gatewayTimeout, "the request took too long", detail: "over its deadline of \(timeout) s")
                error.allowsFallback = true
                continuation.resume(returning: .failure(error))
            }
            timer.withLockedValue { $0 = sleeper }
            // Work that ended before the timer was stored found none to cancel.
            if answer.withLockedValue({ $0 == nil }) { sleeper.cancel() }
        }
        return try outcome.get()
    }
}
