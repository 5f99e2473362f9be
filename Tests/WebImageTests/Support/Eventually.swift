import Foundation

/// Waits (polling every millisecond, for at most `seconds`) until `condition` holds, for
/// work that finishes on another thread; returns whether it held.
@discardableResult
func eventually(within seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}
