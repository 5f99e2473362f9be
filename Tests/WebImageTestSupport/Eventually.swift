import Foundation

/// Waits (for at most `seconds`) until `condition` holds, for work that finishes on another
/// thread; returns whether it held.
///
/// It polls after 1 ms, then twice as long each time up to 16 ms: a condition that holds
/// soon is seen at once, and a long wait does not wake a thread of the two-thread pool
/// a thousand times a second while dozens of tests wait beside it.
///
/// The bound only ends a wait that would fail anyway, so it is long: with the whole suite
/// running in parallel on two cores (under ThreadSanitizer in CI), a test can wait minutes
/// for a thread of the cooperative pool.
@discardableResult
package func eventually(within seconds: Double = 900, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    var pause: UInt64 = 1_000_000
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: pause)
        pause = min(pause * 2, 16_000_000)
    }
    return true
}
