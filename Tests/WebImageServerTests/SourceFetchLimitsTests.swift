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
            try await limits.run(from: ["slow.example"]) { () throws(ImageError) in
                started.withLockedValue { $0.append("slow 1") }
                await gate.wait()
            }
        }
        #expect(await eventually { limits.running(from: "slow.example") == 1 })
        let second = Task {
            try await limits.run(from: ["slow.example"]) { () throws(ImageError) in started.withLockedValue { $0.append("slow 2") } }
        }
        try await limits.run(from: ["fast.example"]) { () throws(ImageError) in started.withLockedValue { $0.append("fast") } }
        #expect(started.withLockedValue { $0 } == ["slow 1", "fast"], "the second fetch from the slow host waits")
        gate.open()
        try await first.value
        try await second.value
        #expect(started.withLockedValue { $0 } == ["slow 1", "fast", "slow 2"])
        #expect(limits.running(from: "slow.example") == 0)
    }

    @Test func aFetchWhoseOriginHasRoomStartsWhileAnotherWaitsForAFullOrigin() async throws {
        let limits = SourceFetchLimits(maximum: 8, maximumPerHost: 1, metrics: ImageServerMetrics())
        let gate = LoopbackGate()
        let first = Task { try await limits.run(from: ["slow.example"]) { () throws(ImageError) in await gate.wait() } }
        #expect(await eventually { limits.running(from: "slow.example") == 1 })
        let queued = Task { try await limits.run(from: ["slow.example"]) { () throws(ImageError) in } }
        #expect(await eventually { limits.waitingCount == 1 })
        // Before, a fetch started at once only when no one waited at all: this one queued
        // behind the slow origin's waiter until the slow fetch ended.
        let ran = NIOLockedValueBox(false)
        let fresh = Task { try await limits.run(from: ["fresh.example"]) { () throws(ImageError) in ran.withLockedValue { $0 = true } } }
        #expect(await eventually { ran.withLockedValue { $0 } }, "the fresh origin's fetch ran while the slow one held its origin")
        #expect(limits.waitingCount == 1)
        gate.open()
        try await first.value
        try await queued.value
        try await fresh.value
        #expect(limits.waitingCount == 0)
    }

    @Test func aFetchCountsAgainstEveryKeyOfItsOrigin() async throws {
        let limits = SourceFetchLimits(maximum: 8, maximumPerHost: 1, metrics: ImageServerMetrics())
        let gate = LoopbackGate()
        // Two names of one address: the second waits for the address, though its domain differs.
        let first = Task {
            try await limits.run(from: ["address 192.0.2.1", "domain a.example"]) { () throws(ImageError) in await gate.wait() }
        }
        #expect(await eventually { limits.running(from: "address 192.0.2.1") == 1 })
        let ran = NIOLockedValueBox<[String]>([])
        let sameAddress = Task {
            try await limits.run(from: ["address 192.0.2.1", "domain b.example"]) { () throws(ImageError) in
                ran.withLockedValue { $0.append("same address") }
            }
        }
        #expect(await eventually { limits.waitingCount == 1 })
        // Another subdomain's address, same registrable domain: waits for the domain too.
        let sameDomain = Task {
            try await limits.run(from: ["address 192.0.2.2", "domain a.example"]) { () throws(ImageError) in
                ran.withLockedValue { $0.append("same domain") }
            }
        }
        #expect(await eventually { limits.waitingCount == 2 })
        try await limits.run(from: ["address 192.0.2.3", "domain c.example"]) { () throws(ImageError) in
            ran.withLockedValue { $0.append("other") }
        }
        #expect(ran.withLockedValue { $0 } == ["other"])
        gate.open()
        try await first.value
        try await sameAddress.value
        try await sameDomain.value
        #expect(Set(ran.withLockedValue { $0 }) == ["other", "same address", "same domain"])
        #expect(limits.running(from: "domain a.example") == 0)
    }

    @Test func registrableDomainsGroupSubdomains() {
        #expect(RegistrableDomain(of: "r17.slow.example").description == "slow.example")
        #expect(RegistrableDomain(of: "CDN.Example.COM.").description == "example.com")
        #expect(RegistrableDomain(of: "a.b.example.co.uk").description == "example.co.uk")
        #expect(RegistrableDomain(of: "x.example.com.au").description == "example.com.au")
        #expect(RegistrableDomain(of: "localhost").description == "localhost")
        #expect(RegistrableDomain(of: "192.0.2.7").description == "192.0.2.7")
        #expect(RegistrableDomain(of: "[2001:db8::1]").description == "2001:db8::1")
    }

    @Test func aWaitingFetchWhoseTaskIsCancelledNeverRuns() async throws {
        let limits = SourceFetchLimits(maximum: 1, maximumPerHost: 1, metrics: ImageServerMetrics())
        let gate = LoopbackGate()
        let first = Task { try await limits.run(from: ["a.example"]) { () throws(ImageError) in await gate.wait() } }
        #expect(await eventually { limits.running(from: "a.example") == 1 })
        let ran = NIOLockedValueBox(false)
        let waiting = Task { try await limits.run(from: ["b.example"]) { () throws(ImageError) in ran.withLockedValue { $0 = true } } }
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
        try await limits.run(from: ["b.example"]) { () throws(ImageError) in ran.withLockedValue { $0 = true } }
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
