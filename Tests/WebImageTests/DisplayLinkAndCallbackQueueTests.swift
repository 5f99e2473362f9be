import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// SDWebImage's `SDDisplayLink` (start, stop, `isRunning`, `duration`) over the animation
/// clock, and `SDCallbackQueue`'s policies.
@Suite struct DisplayLinkAndCallbackQueueTests {
    @Test func aDisplayLinkRefreshesAtItsRateUntilStopped() {
        let clock = ManualAnimationClock()
        let refreshes = NIOLockedValueBox<[Double]>([])
        let link = DisplayLink(clock: clock, framesPerSecond: 4) { _ in
            refreshes.withLockedValue { $0.append(clock.now) }
        }
        #expect(!link.isRunning)
        #expect(link.duration == 0.25)
        link.start()
        #expect(link.isRunning)
        clock.advance(by: 1)
        #expect(refreshes.withLockedValue { $0 } == [0.25, 0.5, 0.75, 1])
        #expect(link.duration == 0.25)

        link.stop()
        #expect(!link.isRunning)
        #expect(clock.nextDeadline == nil, "a stopped link schedules nothing")
        clock.advance(by: 1)
        #expect(refreshes.withLockedValue { $0.count } == 4)

        link.start()
        clock.advance(by: 0.25)
        #expect(refreshes.withLockedValue { $0 }.last == 2.25)
    }

    @Test func theCallbackQueuePoliciesRunInlineOrDispatchAsSDWebImageDoes() async throws {
        let queue = DispatchQueue(label: "callback-queue-test")
        let safe = CallbackQueue(queue, policy: .safeExecute)
        let dispatching = CallbackQueue(queue, policy: .dispatch)
        let invoking = CallbackQueue(queue, policy: .invoke)
        #expect(!safe.isCurrent)

        let order = NIOLockedValueBox<[String]>([])
        let log: @Sendable (String) -> Void = { entry in order.withLockedValue { $0.append(entry) } }
        // Off the queue: safeExecute and dispatch go to the queue, invoke runs at once.
        // The queue is held, so what goes to it cannot run before the check.
        queue.suspend()
        safe.async { log("safe off") }
        invoking.async { log("invoke off") }
        #expect(order.withLockedValue { $0 } == ["invoke off"])
        queue.resume()
        queue.sync {}
        #expect(order.withLockedValue { $0 } == ["invoke off", "safe off"])

        // On the queue: safeExecute runs at once, dispatch after the current block.
        order.withLockedValue { $0 = [] }
        queue.sync {
            #expect(safe.isCurrent)
            dispatching.async { log("dispatch on") }
            safe.async { log("safe on") }
            log("block end")
        }
        queue.sync {}
        #expect(order.withLockedValue { $0 } == ["safe on", "block end", "dispatch on"])
        #expect(CallbackQueue.global().policy == .safeExecute)
    }
}
