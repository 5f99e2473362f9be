import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport

/// A cached result larger than the in-memory size for hits is answered from its file a
/// piece at a time: the hit holds an open file, not the result's bytes, and the bytes
/// written are the file's, even once the cache has removed it.
@Suite("Results streamed from their files")
struct ResultFileTests {
    /// Collects what a response body writes.
    private struct CollectingWriter: ResponseBodyWriter {
        let pieces: CollectedPieces

        mutating func write(_ buffer: ByteBuffer) async throws {
            pieces.append(buffer)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    /// The hit a result cache over `storage` answers for `bytes` stored under `key`.
    private static func hit(of bytes: Data, storedIn storage: DiskCache, forKey key: String) async throws -> ResultCache.Entry {
        let cache = ResultCache(storage: storage, memoryLimit: 0, metrics: ImageServerMetrics(), deadline: RequestDeadline(timeout: 600))
        try storage.store(bytes, forKey: key, metadata: DiskCacheEntryMetadata(contentType: "image/bmp", entityTag: "\"e\""))
        return try await cache.result(forKey: key) { () throws(ImageServerError) in
            throw ImageServerError(.internalServerError, "a hit makes nothing")
        }
    }

    @Test func aLargeHitStreamsFromItsFileEvenOnceTheEntryIsRemoved() async throws {
        let folder = TemporaryDirectory()
        let storage = DiskCache(directory: folder.url.appendingPathComponent("results"))
        let bytes = Data((0..<(ResultCache.largestReadWhole * 3 + 12345)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        let hit = try await Self.hit(of: bytes, storedIn: storage, forKey: "big")
        guard case .file(let file) = hit.body else {
            Issue.record("a result of \(bytes.count) bytes was read whole")
            return
        }
        #expect(file.count == bytes.count)
        #expect(hit.metadata.entityTag == "\"e\"")
        // The cache drops the entry while the answer is still to be written.
        storage.removeData(forKey: "big")
        #expect(storage.data(forKey: "big") == nil)
        let pieces = CollectedPieces()
        var writer: any ResponseBodyWriter = CollectingWriter(pieces: pieces)
        try await file.write(to: &writer)
        let written = pieces.all
        #expect(written.count > 1, "written a piece at a time")
        #expect(written.allSatisfy { $0.readableBytes <= ResultFile.pieceSize })
        #expect(Data(written.flatMap { $0.readableBytesView }) == bytes)
    }

    @Test func aSmallHitIsReadWhole() async throws {
        let folder = TemporaryDirectory()
        let bytes = Data(repeating: 7, count: 1000)
        let hit = try await Self.hit(of: bytes, storedIn: DiskCache(directory: folder.url.appendingPathComponent("results")), forKey: "small")
        guard case .bytes(let buffer) = hit.body else {
            Issue.record("a small result was streamed")
            return
        }
        #expect(Data(buffer.readableBytesView) == bytes)
    }
}

/// The pieces a `ResultFileTests` writer collected, behind a lock.
final class CollectedPieces: Sendable {
    private let box = NIOLockedValueBox<[ByteBuffer]>([])

    func append(_ buffer: ByteBuffer) { box.withLockedValue { $0.append(buffer) } }

    var all: [ByteBuffer] { box.withLockedValue { $0 } }
}
