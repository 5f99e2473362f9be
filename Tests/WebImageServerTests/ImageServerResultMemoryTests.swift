import Foundation
import Testing
import WebImage
import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// The most recently used results are answered from memory, without their files: a result
/// whose file and source are gone is still answered as it was made, unless the memory of
/// results is turned off.
@Suite("ImageServer results in memory")
struct ImageServerResultMemoryTests {
    @Test(arguments: [32 << 20, 0])
    func aRememberedResultIsAnsweredWithoutItsFile(memoryLimit: Int) async throws {
        try await ImageServerHarness.run(configure: { $0.resultMemoryLimit = memoryLimit }) { harness in
            harness.serve("/a.png", try ManagerTestImage.noisePNG(width: 64, height: 64))
            let path = harness.path("resize=32|format=png", source: "/a.png")
            let first = try await harness.get(path)
            #expect(first.status == 200)
            let eTag = try #require(first.headers.first(name: "ETag"))
            // The result's file and the source's are removed, and the source now differs.
            await harness.server.results.clearDisk()
            await harness.server.sources.clearDisk()
            harness.serve("/a.png", try ManagerTestImage.noisePNG(width: 48, height: 48))
            let again = try await harness.get(path)
            #expect(again.status == 200)
            if memoryLimit > 0 {
                #expect(again.headers.first(name: "ETag") == eTag, "answered from memory, as it was made")
                #expect(again.body == first.body)
            } else {
                #expect(again.headers.first(name: "ETag") != eTag, "made again from the new source")
            }
        }
    }
}
