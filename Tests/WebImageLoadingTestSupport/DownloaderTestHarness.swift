import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport

/// Runs `body` with a fresh loopback server and a downloader that decodes the raw test
/// format, then shuts both down.
package func withDownloader<Value: Sendable>(
    tls: LoopbackTLSIdentity? = nil,
    configure: (inout ImageDownloaderConfiguration) -> Void = { _ in },
    _ body: (LoopbackHTTPServer, ImageDownloader, RawRGBATestCoder) async throws -> Value
) async throws -> Value {
    let server = try await LoopbackHTTPServer.start(tls: tls)
    let coder = RawRGBATestCoder()
    var configuration = ImageDownloaderConfiguration()
    // Tests stall transfers on purpose; a suite under ThreadSanitizer can starve the
    // cooperative pool for longer than the default idle timeout. Tests of timeouts set their own.
    configuration.downloadTimeout = 300
    configuration.downloadDeadline = 600
    configuration.coders = ImageCodersManager(coders: [coder])
    configure(&configuration)
    let downloader = ImageDownloader(configuration: configuration)
    do {
        let result = try await body(server, downloader, coder)
        try await downloader.shutdown()
        try await server.stop()
        return result
    } catch {
        try? await downloader.shutdown()
        try? await server.stop()
        throw error
    }
}

/// Runs `body` and returns the ``ImageError`` it throws (failing the test when it does not).
package func capturedError<Value>(_ body: () async throws(ImageError) -> Value) async -> ImageError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
