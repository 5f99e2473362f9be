import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport

/// Fetches run within a limit over all hosts and one per host; a waiting fetch leaves when
/// its task is cancelled.
@Suite("Source fetch limits")
struct SourceFetchLimitsTests {
    @Test func aHostAtItsLimitWaitsWhileOtherHostsFetch() async throws {
        let limits = SourceFetchLimits(maximum: 4, maximumPerHost: 1, metrics: ImageServerMetrics())
        let gate = LoopbackGate()
        let started = NIOLockedValueBox<[String]>([])
        let first = Task {
            try await limits.run(from: "slow.example") { () throws(ImageError) in
                started.withLockedValue { $0.append("slow 1") }
                await gate.wait()
            }
        }
        #expect(await eventually { limits.running(from: "slow.example") == 1 })
        let second = Task {
            try await limits.run(from: "slow.example") { () throws(ImageError) in started.withLockedValue { $0.append("slow 2") } }
        }
        try await limits.run(from: "fast.example") { () throws(ImageError) in started.withLockedValue { $0.append("fast") } }
        #expect(started.withLockedValue { $0 } == ["slow 1", "fast"], "the second fetch from the slow host waits")
        gate.open()
        try await first.value
        try await second.value
        #expect(started.withLockedValue { $0 } == ["slow 1", "fast", "slow 2"])
        #expect(limits.running(from: "slow.example") == 0)
    }

    @Test func aWaitingFetchWhoseTaskIsCancelledNeverRuns() async throws {
        let limits = SourceFetchLimits(maximum: 1, maximumPerHost: 1, metrics: ImageServerMetrics())
        let gate = LoopbackGate()
        let first = Task { try await limits.run(from: "a.example") { () throws(ImageError) in await gate.wait() } }
        #expect(await eventually { limits.running(from: "a.example") == 1 })
        let ran = NIOLockedValueBox(false)
        let waiting = Task { try await limits.run(from: "b.example") { () throws(ImageError) in ran.withLockedValue { $0 = true } } }
        waiting.cancel()
        do {
            try await waiting.value
            Issue.record("a cancelled fetch ran")
        } catch let error as ImageError {
            #expect(error.code == .deadlineExceeded)
        }
        gate.open()
        try await first.value
        #expect(!ran.withLockedValue { $0 })
        // The slot it never took is free for the next fetch.
        try await limits.run(from: "b.example") { () throws(ImageError) in ran.withLockedValue { $0 = true } }
        #expect(ran.withLockedValue { $0 })
    }
}

/// Work slots refuse at once when all are taken, and are given back after the work.
@Suite("Transform slots")
struct TransformSlotsTests {
    @Test func aRequestPastTheSlotsIsRefused503AtOnce() async throws {
        let slots = TransformSlots(maximum: 1)
        let gate = LoopbackGate()
        let holder = Task { try await slots.withSlot { () throws(ImageServerError) in await gate.wait() } }
        #expect(await eventually { slots.count == 1 })
        do {
            try await slots.withSlot { () throws(ImageServerError) in }
            Issue.record("a second slot was given")
        } catch {
            #expect(error.status == .serviceUnavailable)
        }
        gate.open()
        try await holder.value
        #expect(slots.count == 0)
        #expect(try await slots.withSlot { () throws(ImageServerError) in 7 } == 7)
    }
}
