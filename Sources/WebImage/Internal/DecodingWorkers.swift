import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The bounded set of threads (one per core) that decode downloaded images, so decoding
/// never blocks a NIO event loop or the cooperative thread pool.
package enum DecodingWorkers {
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    /// Runs `body` on a decoding thread, without waiting for it.
    static func submit(_ body: @escaping @Sendable () -> Void) {
        // The pool lives as long as the process, so the work is never refused.
        pool.submit { _ in body() }
    }

    /// Decodes `data` on a decoding thread as `request` asks, or returns `nil` at once when
    /// the request wants the bytes only.
    static func image(from data: Data, for request: ImageLoadRequest, coders: ImageCodersManager) async throws(ImageError) -> Image? {
        guard request.decodesImage else { return nil }
        let options = request.decodeOptions
        return try await run { () throws(ImageError) -> Image in
            try coders.decode(data, options: options)
        }
    }

    /// Runs `body` on a decoding thread and waits for its result.
    package static func run<Value: Sendable>(_ body: @escaping @Sendable () throws(ImageError) -> Value) async throws(ImageError) -> Value {
        try await run(on: pool, body)
    }

    /// Runs `body` on one of `pool`'s threads and waits for its result.
    ///
    /// The result comes back through a lock as well as through the continuation. The
    /// continuation orders the two threads, but when it is resumed before its task has
    /// suspended, the Swift runtime takes a path that ThreadSanitizer does not see, and it
    /// reported every field of a freshly decoded image as racing with its first read.
    /// The lock makes the same order visible to it.
    package static func run<Value: Sendable>(
        on pool: NIOThreadPool,
        _ body: @escaping @Sendable () throws(ImageError) -> Value
    ) async throws(ImageError) -> Value {
        let handOver = NIOLockedValueBox<Result<Value, ImageError>?>(nil)
        do {
            try await pool.runIfActive {
                let result: Result<Value, ImageError>
                do throws(ImageError) {
                    result = .success(try body())
                } catch {
                    result = .failure(error)
                }
                handOver.withLockedValue { $0 = result }
            }
        } catch {
            throw ImageError(.cancelled, "the decoding threads have stopped")
        }
        guard let result = handOver.withLockedValue({ $0 }) else {
            throw ImageError(.cancelled, "the decoding threads have stopped")
        }
        return try result.get()
    }
}
