import Dispatch
import Foundation
import NIOCore
import Testing
@testable import WebImageServer
import WebImageTestSupport

/// Host-name lookups run on a pool of their own with a deadline: a lookup that hangs
/// answers nothing once its time is up, and a full pool answers nothing at once, while
/// the hung lookups hold only the pool's own threads.
@Suite("Host lookup pool", .serialized, .timeLimit(.minutes(15)))
struct HostLookupPoolTests {
    @Test func aLookupPastItsDeadlineAnswersNothing() async throws {
        // The lookup never ends before its deadline, however slow the machine.
        let pool = HostLookupPool(threads: 1, timeout: .milliseconds(100), maximumPending: 8)
        let release = DispatchSemaphore(value: 0)
        let addresses = await pool.run("slow.test") { _ in
            release.wait()
            return ["192.0.2.1"]
        }
        #expect(addresses.isEmpty)
        release.signal()
        #expect(await eventually { pool.pendingCount == 0 }, "the hung lookup finishes in the background")
        try await pool.shutdown()
    }

    @Test func aPromptLookupAnswersItsAddresses() async throws {
        let pool = HostLookupPool(threads: 2, timeout: .seconds(600), maximumPending: 8)
        #expect(await pool.run("fast.test") { host in host == "fast.test" ? ["198.51.100.7"] : [] } == ["198.51.100.7"])
        #expect(pool.pendingCount == 0)
        try await pool.shutdown()
    }

    @Test func aSilentZoneHoldsAtMostItsShareOfThePool() async throws {
        let pool = HostLookupPool(threads: 4, timeout: .seconds(600), maximumPending: 64, maximumPerZone: 2)
        let release = DispatchSemaphore(value: 0)
        let hung = (1...2).map { index in
            Task {
                await pool.run("r\(index).slow.example") { _ in
                    release.wait()
                    return ["192.0.2.\(index)"]
                }
            }
        }
        #expect(await eventually { pool.pendingCount == 2 })
        // Another made-up name in the silent zone is refused at once instead of taking a
        // third thread (before, it took one and hung with the others).
        #expect(await pool.run("r3.slow.example") { _ in ["192.0.2.3"] }.isEmpty)
        #expect(await pool.run("images.other.test") { _ in ["198.51.100.9"] } == ["198.51.100.9"], "other zones still resolve")
        for _ in hung { release.signal() }
        for (index, lookup) in hung.enumerated() { #expect(await lookup.value == ["192.0.2.\(index + 1)"]) }
        #expect(await eventually { pool.pendingCount == 0 })
        try await pool.shutdown()
    }

    @Test func aFullPoolAnswersNothingAtOnce() async throws {
        let pool = HostLookupPool(threads: 1, timeout: .seconds(600), maximumPending: 1)
        let release = DispatchSemaphore(value: 0)
        let hung = Task {
            await pool.run("hung.test") { _ in
                release.wait()
                return ["192.0.2.9"]
            }
        }
        #expect(await eventually { pool.pendingCount == 1 })
        #expect(await pool.run("other.test") { _ in ["198.51.100.8"] }.isEmpty, "no place is left")
        release.signal()
        #expect(await hung.value == ["192.0.2.9"])
        #expect(await pool.run("other.test") { _ in ["198.51.100.8"] } == ["198.51.100.8"])
        try await pool.shutdown()
    }
}
