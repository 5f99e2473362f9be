import NIOConcurrencyHelpers
import Testing
@testable import WebImageServer
import WebImageTestSupport

/// The process-wide memory budget admits work by its planned bytes, in turn, for a bounded
/// wait.
@Suite("Memory admission")
struct MemoryAdmissionTests {
    @Test func workThatFitsIsAdmittedAtOnceAndCounted() async throws {
        let memory = MemoryAdmission(capacity: 100, wait: .seconds(60), metrics: ImageServerMetrics())
        try await memory.admit(60)
        try await memory.admit(40)
        #expect(memory.reserved == 100)
        memory.release(60)
        #expect(memory.reserved == 40)
    }

    @Test func workLargerThanTheWholeBudgetIsRefused413() async throws {
        let memory = MemoryAdmission(capacity: 100, wait: .seconds(60), metrics: ImageServerMetrics())
        await #expect(throws: ImageServerError.self) { try await memory.admit(101) }
        do {
            try await memory.admit(101)
        } catch {
            #expect(error.status == .contentTooLarge)
        }
        #expect(memory.reserved == 0)
    }

    @Test func aWaiterIsAdmittedWhenRoomIsMade() async throws {
        let memory = MemoryAdmission(capacity: 100, wait: .seconds(600), metrics: ImageServerMetrics())
        try await memory.admit(80)
        let waiter = Task { try await memory.admit(50) }
        #expect(await eventually { memory.waiting == 1 })
        #expect(memory.reserved == 80, "the waiter holds nothing while it waits")
        memory.release(80)
        try await waiter.value
        #expect(memory.reserved == 50)
        #expect(memory.waiting == 0)
    }

    @Test func aWaiterIsRefused503AfterItsWait() async throws {
        let memory = MemoryAdmission(capacity: 100, wait: .milliseconds(20), metrics: ImageServerMetrics())
        try await memory.admit(80)
        do {
            try await memory.admit(50)
            Issue.record("admitted past the budget")
        } catch {
            #expect(error.status == .serviceUnavailable)
        }
        #expect(memory.reserved == 80)
        #expect(memory.waiting == 0)
    }

    @Test func waitersAreAdmittedInTheOrderTheyCame() async throws {
        let memory = MemoryAdmission(capacity: 100, wait: .seconds(600), metrics: ImageServerMetrics())
        try await memory.admit(90)
        let order = NIOLockedValueBox<[Int]>([])
        let large = Task {
            try await memory.admit(60)
            order.withLockedValue { $0.append(60) }
        }
        #expect(await eventually { memory.waiting == 1 })
        let small = Task {
            try await memory.admit(10)
            order.withLockedValue { $0.append(10) }
        }
        #expect(await eventually { memory.waiting == 2 })
        // 10 bytes are free: the small waiter would fit, but it came second.
        #expect(memory.reserved == 90)
        // Room for the large one alone: it is admitted, and the small one still waits.
        memory.release(50)
        try await large.value
        #expect(memory.waiting == 1)
        memory.release(40)
        try await small.value
        #expect(order.withLockedValue { $0 } == [60, 10])
        #expect(memory.reserved == 70)
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let memory = MemoryAdmission(capacity: 100, wait: .seconds(600), metrics: ImageServerMetrics())
        try await memory.admit(100)
        let waiter = Task { try await memory.admit(10) }
        #expect(await eventually { memory.waiting == 1 })
        waiter.cancel()
        await #expect(throws: ImageServerError.self) { try await waiter.value }
        #expect(memory.waiting == 0)
        #expect(memory.reserved == 100)
    }
}
