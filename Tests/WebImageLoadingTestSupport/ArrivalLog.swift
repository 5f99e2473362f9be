import LoopbackHTTPServer
import WebImageTestSupport

/// Values that arrive from other threads, kept in arrival order, and a way for a test to
/// wait until enough of them (or the right ones) have arrived.
package final class ArrivalLog<Element: Sendable>: Sendable {
    private let arrived = LoopbackWatchedValue<[Element]>([])

    package init() {}

    /// The values so far, in arrival order.
    package var elements: [Element] { arrived.read { $0 } }

    /// How many values arrived.
    package var count: Int { arrived.read { $0.count } }

    /// Records one value and wakes the waits it satisfies.
    package func append(_ element: Element) {
        arrived.update { $0.append(element) }
    }

    /// Returns once `count` values have arrived; throws after fifteen minutes without them
    /// (`LoopbackWaitTimedOut`) or when the task is cancelled.
    package func wait(for count: Int) async throws {
        try await wait { $0.count >= count }
    }

    /// Returns once `condition` holds for the values so far; throws as ``wait(for:)`` does.
    package func wait(until condition: @escaping @Sendable ([Element]) -> Bool) async throws {
        try await arrived.wait(until: condition)
    }
}
