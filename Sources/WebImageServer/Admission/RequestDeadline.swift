import Foundation
import NIOConcurrencyHelpers

/// A request's deadline (``ImageServerConfiguration/requestTimeout``): past it, the request
/// is answered 504 and its work is cancelled. The work's slot and memory are given back
/// when the work itself ends, so that nothing admitted is counted out while it still runs.
///
/// The work knows when its deadline falls (``remaining``), so that work that cannot be
/// stopped once started (an AVIF encode) is planned against the time left.
struct RequestDeadline: Sendable {
    /// The seconds a request's work may take.
    let timeout: TimeInterval

    /// When the deadline of the work running in this task passes; `nil` outside one.
    @TaskLocal private static var end: ContinuousClock.Instant?

    /// The time left before the deadline of the work running in this task (negative once
    /// it passed); `nil` outside one. Work shared by several requests has the deadline of
    /// the request that started it.
    static var remaining: Duration? {
        end.map { $0 - ContinuousClock.now }
    }

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
        let end = ContinuousClock.now + .seconds(timeout)
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, ImageServerError>, Never>) in
            answer.withLockedValue { $0 = continuation }
            let running = Task { () -> Void in
                // Work on a deadline within another keeps the sooner one.
                let result = await RequestDeadline.$end.withValue(min(end, RequestDeadline.end ?? end)) {
                    () async -> Result<Value, ImageServerError> in
                    do throws(ImageServerError) {
                        return .success(try await work())
                    } catch {
                        return .failure(error)
                    }
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
