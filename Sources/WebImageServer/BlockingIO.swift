import NIOPosix
import WebImage

/// NIO's blocking-I/O threads, for the disk reads and writes of the result cache and the
/// hashing of a raw source: work that must never run on an event loop.
enum BlockingIO {
    /// Runs `body` on NIO's blocking-I/O threads.
    ///
    /// - Throws: What `body` throws, or ``ImageServerError`` 503 when the pool has stopped
    ///   (the server is shutting down).
    static func run<Value: Sendable>(
        _ body: @escaping @Sendable () throws(ImageServerError) -> Value
    ) async throws(ImageServerError) -> Value {
        let result: Result<Value, ImageServerError>
        do {
            result = try await DecodingWorkers.run(on: NIOThreadPool.singleton) { () throws(ImageError) -> Result<Value, ImageServerError> in
                do throws(ImageServerError) {
                    return .success(try body())
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw ImageServerError(.serviceUnavailable, "the server is shutting down")
        }
        return try result.get()
    }
}
