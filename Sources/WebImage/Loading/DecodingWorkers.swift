import Foundation
import NIOCore
import NIOPosix

/// The bounded set of threads (one per core) that decode downloaded images, so decoding
/// never blocks a NIO event loop or the cooperative thread pool.
enum DecodingWorkers {
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
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws(ImageError) -> Value) async throws(ImageError) -> Value {
        let result: Result<Value, ImageError>
        do {
            result = try await pool.runIfActive { () -> Result<Value, ImageError> in
                do throws(ImageError) {
                    return .success(try body())
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw ImageError(.cancelled, "the decoding threads have stopped")
        }
        return try result.get()
    }
}
