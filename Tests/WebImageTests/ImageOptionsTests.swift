import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite struct ImageOptionsTests {
    @Test func namesRoundTrip() throws {
        let options = try #require(ImageOptions(names: "retryFailed, refreshCached,cacheMemoryOnly"))
        #expect(options == [.retryFailed, .refreshCached, .cacheMemoryOnly])
        #expect(options.names == ["retryFailed", "cacheMemoryOnly", "refreshCached"])
        #expect(ImageOptions(names: "") == [])
        #expect(ImageOptions(names: "retryFailed,noSuchOption") == nil)
    }

    @Test func everyOptionHasItsOwnBitAndName() {
        let all = ImageOptions.named
        #expect(Set(all.map(\.option.rawValue)).count == all.count)
        #expect(Set(all.map(\.name)).count == all.count)
        #expect(all.allSatisfy { $0.option.rawValue.nonzeroBitCount == 1 })
    }
}
