import NIOConcurrencyHelpers
import Testing
@testable import WebImageServer
import WebImageTestSupport

/// Callers of one key share one piece of work and its outcome; the work goes on while one
/// caller waits for it, and is cancelled when every caller has left.
@Suite("Shared work")
struct SharedWorkTests {
    /// Work that counts its starts in `starts`, runs until `release` yields or it is
    /// cancelled, and answers whether it was cancelled.
    static func work(
        starts: NIOLockedValueBox<Int>, release: AsyncStream<Void>
    ) -> @Sendable () async throws(ImageServerError) -> Bool {
        { () async throws(ImageServerError) -> Bool in
            starts.withLockedValue { $0 += 1 }
            for await _ in release { break }
            return Task.isCancelled
        }
    }

    @Test func callersOfOneKeyShareOneOutcome() async throws {
        let joins = NIOLockedValueBox(0)
        let shared = SharedWork<String, Bool, ImageServerError> { joins.withLockedValue { $0 += 1 } }
        let starts = NIOLockedValueBox(0)
        let release = AsyncStream<Void>.makeStream()
        let work = Self.work(starts: starts, release: release.stream)
        let callers = (0..<5).map { _ in Task { try await shared.run("a", work) } }
        #expect(await eventually { shared.waiting(for: "a") == 5 })
        release.continuation.yield()
        for caller in callers {
            #expect(try await caller.value == false)
        }
        #expect(starts.withLockedValue { $0 } == 1)
        #expect(joins.withLockedValue { $0 } == 4)
        #expect(shared.waiting(for: "a") == 0, "the last caller out forgets the work")
    }

    @Test func anErrorIsEveryCallersAndOtherKeysRunApart() async throws {
        let shared = SharedWork<String, Int, ImageServerError>()
        let gate = AsyncStream<Void>.makeStream()
        let failing = { @Sendable () async throws(ImageServerError) -> Int in
            for await _ in gate.stream { break }
            throw ImageServerError(.badGateway, "source refused")
        }
        let first = Task { try await shared.run("bad", failing) }
        let second = Task { try await shared.run("bad", failing) }
        #expect(await eventually { shared.waiting(for: "bad") == 2 })
        #expect(try await shared.run("good") { () throws(ImageServerError) in 7 } == 7, "another key does not wait")
        gate.continuation.yield()
        for caller in [first, second] {
            await #expect(throws: ImageServerError.self) { try await caller.value }
        }
    }

    @Test func aCallerThatLeavesDoesNotCancelTheWorkForTheOthers() async throws {
        let shared = SharedWork<String, Bool, ImageServerError>()
        let starts = NIOLockedValueBox(0)
        let release = AsyncStream<Void>.makeStream()
        let work = Self.work(starts: starts, release: release.stream)
        let leaving = Task { try await shared.run("a", work) }
        let staying = Task { try await shared.run("a", work) }
        #expect(await eventually { shared.waiting(for: "a") == 2 })
        leaving.cancel()
        #expect(await eventually { shared.waiting(for: "a") == 1 })
        release.continuation.yield()
        #expect(try await staying.value == false, "the work was not cancelled")
        #expect(try await leaving.value == false, "the caller that left hears the same outcome")
        #expect(starts.withLockedValue { $0 } == 1)
    }

    @Test func workEveryCallerLeftIsCancelledAndStartedAgainByTheNext() async throws {
        let shared = SharedWork<String, Bool, ImageServerError>()
        let starts = NIOLockedValueBox(0)
        let release = AsyncStream<Void>.makeStream()
        let work = Self.work(starts: starts, release: release.stream)
        let callers = (0..<2).map { _ in Task { try await shared.run("a", work) } }
        #expect(await eventually { shared.waiting(for: "a") == 2 })
        for caller in callers { caller.cancel() }
        for caller in callers {
            #expect(try await caller.value == true, "the work was cancelled")
        }
        #expect(shared.waiting(for: "a") == 0)
        let nextRelease = AsyncStream<Void>.makeStream()
        let next = Self.work(starts: starts, release: nextRelease.stream)
        let again = Task { try await shared.run("a", next) }
        #expect(await eventually { starts.withLockedValue { $0 } == 2 }, "the next caller starts the work again")
        nextRelease.continuation.yield()
        #expect(try await again.value == false)
    }
}
