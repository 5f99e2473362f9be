import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// The memory budget the memory cache's default limit comes from.
@Suite("ProcessMemory")
struct ProcessMemoryTests {
    @Test func theDefaultLimitIsFifteenPercentCappedAndFloored() {
        #expect(ProcessMemory.defaultMemoryCacheLimit(available: 1 << 30) == (1 << 30) / 100 * 15)
        #expect(ProcessMemory.defaultMemoryCacheLimit(available: 64 << 30) == 768 << 20)
        #expect(ProcessMemory.defaultMemoryCacheLimit(available: 32 << 20) == 16 << 20)
    }

    @Test func readsCgroupV2AndV1LimitsAndTreatsMaxAsNone() throws {
        let folder = TemporaryDirectory(prefix: "cgroup")
        #expect(ProcessMemory.cgroupLimit(root: folder.url.path) == nil)

        let v1 = folder.url.appendingPathComponent("memory")
        try FileManager.default.createDirectory(at: v1, withIntermediateDirectories: true)
        try "9223372036854771712\n".write(to: v1.appendingPathComponent("memory.limit_in_bytes"), atomically: true, encoding: .utf8)
        #expect(ProcessMemory.cgroupLimit(root: folder.url.path) == nil)
        try "536870912\n".write(to: v1.appendingPathComponent("memory.limit_in_bytes"), atomically: true, encoding: .utf8)
        #expect(ProcessMemory.cgroupLimit(root: folder.url.path) == 536_870_912)

        // cgroup v2's file wins over v1's.
        try "max\n".write(to: folder.url.appendingPathComponent("memory.max"), atomically: true, encoding: .utf8)
        #expect(ProcessMemory.cgroupLimit(root: folder.url.path) == nil)
        try "268435456\n".write(to: folder.url.appendingPathComponent("memory.max"), atomically: true, encoding: .utf8)
        #expect(ProcessMemory.cgroupLimit(root: folder.url.path) == 268_435_456)
    }

    @Test func theAvailableMemoryIsPositiveAndAtMostPhysical() {
        #expect(ProcessMemory.available > 0)
        #expect(UInt64(ProcessMemory.available) <= ProcessInfo.processInfo.physicalMemory)
    }
}
