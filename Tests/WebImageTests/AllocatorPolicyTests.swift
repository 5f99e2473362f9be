import Testing
@testable import WebImage

/// The allocator settings a program makes at start, and the environment's precedence.
@Suite("AllocatorPolicy")
struct AllocatorPolicyTests {
    @Test func eachPolicyIsSetUnlessTheEnvironmentChose() {
        for policy in [AllocatorPolicy.returnBlocks(from: 2 << 20), .keepFreedBlocks] {
            #if canImport(Glibc)
            #expect(policy.apply(environment: [:]))
            #else
            #expect(!policy.apply(environment: [:]))
            #endif
            #expect(!policy.apply(environment: ["MALLOC_MMAP_THRESHOLD_": "1048576"]))
            #expect(!policy.apply(environment: ["MALLOC_TRIM_THRESHOLD_": "1048576"]))
        }
    }
}
