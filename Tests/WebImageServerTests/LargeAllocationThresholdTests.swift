import Testing
@testable import WebImageServer

/// The allocator setting the server makes at start, and the environment's precedence.
@Suite("Large allocation threshold")
struct LargeAllocationThresholdTests {
    @Test func theServerSetsTwoMebibytesUnlessTheEnvironmentChose() {
        #if canImport(Glibc)
        #expect(LargeAllocationThreshold.apply(environment: [:]) == 2 << 20)
        #expect(LargeAllocationThreshold.apply(environment: ["MALLOC_MMAP_THRESHOLD_": "1048576"]) == nil)
        #else
        #expect(LargeAllocationThreshold.apply(environment: [:]) == nil)
        #endif
    }
}
