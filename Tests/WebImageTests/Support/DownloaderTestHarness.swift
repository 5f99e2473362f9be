import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
@testable import WebImage

/// Runs `body` with a fresh loopback server and a downloader that decodes the raw test
/// format, then shuts both down.
func withDownloader<Value: Sendable>(
    tls: LoopbackTLSIdentity? = nil,
    configure: (inout ImageDownloaderConfig) -> Void = { _ in },
    _ body: (LoopbackHTTPServer, ImageDownloader, RawTestCoder) async throws -> Value
) async throws -> Value {
    let server = try await LoopbackHTTPServer.start(tls: tls)
    let coder = RawTestCoder()
    var config = ImageDownloaderConfig()
    config.coders = ImageCodersManager(coders: [coder])
    configure(&config)
    let downloader = ImageDownloader(config: config)
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

/// Collects values from callbacks that run on other threads.
final class Recorder<Value: Sendable>: Sendable {
    private let box = NIOLockedValueBox<[Value]>([])

    var values: [Value] { box.withLockedValue { $0 } }

    func append(_ value: Value) {
        box.withLockedValue { $0.append(value) }
    }
}

/// Collects the results of the callback API and lets a test wait for a number of them.
final class ResultCollector: Sendable {
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

/// Runs `body` and returns the ``ImageError`` it throws (failing the test when it does not).
func capturedError<Value>(_ body: () async throws(ImageError) -> Value) async -> ImageError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

extension LoopbackResponseWriter {
    /// Responds with a raw test image of `width` × `height`.
    func respondWithRawImage(width: Int = 4, height: Int = 3, headers: [(String, String)] = []) async {
        await respond(headers: [("Content-Type", "image/x-raw")] + headers, body: RawTestCoder.encode(width: width, height: height))
    }
}
