import Foundation

/// Waits (polling every millisecond, for at most `seconds`) until `condition` holds, for
/// work that finishes on another thread; returns whether it held.
///
/// The bound only ends a wait that would fail anyway, so it is long: with the whole suite
/// running in parallel on two cores (under ThreadSanitizer in CI), a test can wait minutes
/// for a thread of the cooperative pool.
@discardableResult
func eventually(within seconds: Double = 900, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}
