import Foundation
import NIOConcurrencyHelpers
import WebImage
import WebImageTestSupport

/// Records what an ``AnimatedImagePlayer`` reports: each frame shown with the clock's
/// reading, each finished loop, and the end.
package final class PlayerRecorder: Sendable {
    private let state = NIOLockedValueBox<(frames: [(Int, Double)], loops: [Int], finishes: Int)>(([], [], 0))

    /// Starts recording `player`'s callbacks, reading time from `clock`.
    package init(_ player: AnimatedImagePlayer, clock: ManualAnimationClock) {
        player.onFrameChange = { [state] index, _ in
            let now = clock.now
            state.withLockedValue { $0.frames.append((index, now)) }
        }
        player.onLoopFinish = { [state] loops in state.withLockedValue { $0.loops.append(loops) } }
        player.onFinish = { [state] in state.withLockedValue { $0.finishes += 1 } }
    }

    /// The indices of the frames shown, in order.
    package var frames: [Int] { state.withLockedValue { $0.frames.map(\.0) } }
    /// The clock's reading when each frame showed.
    package var times: [Double] { state.withLockedValue { $0.frames.map(\.1) } }
    /// The loop counts reported, in order.
    package var loops: [Int] { state.withLockedValue { $0.loops } }
    /// How many times the end was reported.
    package var finishes: Int { state.withLockedValue { $0.finishes } }
}
