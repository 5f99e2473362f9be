import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// Both disk caches of the server are bounded by default and trimmed as they fill; decoded
/// sources are kept in memory only when the configuration asks, and the decoded-source tier
/// is bounded by default.
@Suite("ImageServer cache limits", .serialized, .timeLimit(.minutes(15)))
struct ImageServerCacheLimitTests {
    @Test func theCachesAreBoundedByDefault() {
        let configuration = ImageServerConfiguration(cacheDirectory: URL(fileURLWithPath: "/tmp"))
        #expect(configuration.maxSourceCacheBytes > 0 && configuration.maxSourceCacheBytes <= 4 << 30)
        #expect(configuration.maxResultCacheBytes > 0 && configuration.maxResultCacheBytes <= 4 << 30)
    }

    @Test func decodedSourcesAreKeptInMemoryOnlyWhenAsked() {
        var configuration = ImageServerConfiguration(cacheDirectory: URL(fileURLWithPath: "/tmp"))
        #expect(!ImageServer.sourceCacheConfiguration(configuration).shouldCacheImagesInMemory, "results are cached; sources are not")
        configuration.memoryLimit = 64 << 20
        let sources = ImageServer.sourceCacheConfiguration(configuration)
        #expect(sources.shouldCacheImagesInMemory && sources.maxMemoryCost == 64 << 20)
    }

    @Test func theDecodedSourceTierIsAQuarterOfTheBudgetUpToItsMeasuredBound() {
        var configuration = ImageServerConfiguration(cacheDirectory: URL(fileURLWithPath: "/tmp"))
        configuration.memoryBudget = 8 << 30
        #expect(configuration.decodedSourceCapacity == 48 << 20, "a large budget keeps the measured 48 MiB")
        configuration.memoryBudget = 128 << 20
        #expect(configuration.decodedSourceCapacity == 32 << 20, "a small budget keeps a quarter of it")
        configuration.decodedSourceMemory = 1 << 30
        #expect(configuration.decodedSourceCapacity == 1 << 30, "a size given is kept as given")
        configuration.decodedSourceMemory = 0
        #expect(configuration.decodedSourceCapacity == 0)
    }

    @Test func resultsAndSourcesStayUnderTheirLimits() async throws {
        let limit = 40_000
        try await ImageServerHarness.run(configure: {
            $0.maxResultCacheBytes = limit
            $0.maxSourceCacheBytes = limit
        }) { harness in
            // Noise does not compress: each source is about 12 KB, each result a few KB.
            for index in 0..<12 {
                harness.serve("/noise-\(index).png", try ManagerTestImage.noisePNG(width: 64, height: 64))
            }
            var written = 0
            for index in 0..<12 {
                for width in [60, 50, 40] {
                    let answer = try await harness.get(harness.path("resize=\(width)|format=png", source: "/noise-\(index).png"))
                    #expect(answer.status == 200)
                    written += answer.body.count
                }
            }
            #expect(written > 2 * limit, "the results written are well over the limit")
            await harness.server.results.waitForDiskMaintenance()
            await harness.server.sources.waitForDiskMaintenance()
            let results = await harness.server.results.totalDiskSize()
            let sources = await harness.server.sources.totalDiskSize()
            #expect(results <= limit, "results: \(results) bytes")
            #expect(sources <= limit, "sources: \(sources) bytes")
            #expect(results > 0 && sources > 0)
        }
    }
}
