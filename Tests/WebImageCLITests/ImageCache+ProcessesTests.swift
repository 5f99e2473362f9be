import Foundation
import Glibc
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Several processes on one cache folder, and writers killed in the middle of a store.
@Suite("ImageCache processes")
struct ImageCacheProcessesTests {
    private let folder = TemporaryDirectory(prefix: "cache-processes")

    /// A fresh look at the folder the children write to.
    private func openStressCache() -> DiskCache {
        DiskCache(directory: folder.url.appendingPathComponent("stress"))
    }

    @Test("two processes storing the same keys at once leave only intact entries")
    func twoWriters() async throws {
        let directory = folder.url
        let children = try (0..<2).map { _ in
            try StressTool.start(directory: directory, prefix: "shared", count: 60, maxSize: 0, variety: 12)
        }
        for (child, _) in children {
            #expect(try await child.waitForExit() == 0)
        }
        let cache = openStressCache()
        for index in 0..<12 {
            let key = "shared-\(index).bin"
            let data = try #require(cache.data(forKey: key))
            #expect(StressTool.isIntact(data, forKey: key))
        }
        #expect(cache.totalCount() == 12)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test("two processes with a size limit keep the folder under it together")
    func twoWritersWithLimit() async throws {
        let directory = folder.url
        let maxSize = 1_500_000
        let children = try ["a", "b"].map { prefix in
            try StressTool.start(directory: directory, prefix: prefix, count: 40, maxSize: maxSize, variety: 40)
        }
        for (child, _) in children {
            #expect(try await child.waitForExit() == 0)
        }
        let cache = DiskCache(directory: folder.url.appendingPathComponent("stress"), maxSize: maxSize)
        cache.waitForMaintenance()
        #expect(cache.totalSize() <= maxSize)
        var present = 0
        for prefix in ["a", "b"] {
            for index in 0..<40 {
                let key = "\(prefix)-\(index).bin"
                guard let data = cache.data(forKey: key) else { continue }
                present += 1
                #expect(StressTool.isIntact(data, forKey: key))
            }
        }
        #expect(present == cache.totalCount())
        #expect(present > 0)
    }

    @Test("a writer killed mid-store never leaves a partial entry behind")
    func killedWriter() async throws {
        let directory = folder.url
        let variety = 6
        for round in 0..<20 {
            let (child, output) = try StressTool.start(
                directory: directory, prefix: "crash", count: 0, maxSize: 0, variety: variety,
                largestEntry: 4 << 20
            )
            try await StressTool.runBlocking { StressTool.waitForStores(1 + round % 4, from: output) }
            child.send(SIGKILL)
            _ = try? await child.waitForExit()
            let cache = ImageCache(namespace: "stress", directory: directory, coders: RawTestCoder.manager())
            var present = 0
            for index in 0..<variety {
                let key = "crash-\(index).bin"
                guard let data = cache.diskStorage.data(forKey: key) else { continue }
                present += 1
                #expect(StressTool.isIntact(data, forKey: key), "round \(round), key \(key)")
            }
            #expect(present >= 1)
            #expect(cache.diskStorage.measure().count == present)
        }
    }
}
