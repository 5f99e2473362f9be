import NIOConcurrencyHelpers

/// Calls back at a steady rate on an ``AnimationClock``, until stopped — SDWebImage's
/// `SDDisplayLink`, which drives its animated views from the screen's refresh (Linux has
/// no screen refresh to follow, so the rate is a fixed number of refreshes per second).
///
/// Refreshes fall on whole multiples of the interval from ``start()``: a callback that
/// runs late does not push the next ones back, and refreshes missed while the clock's
/// thread was busy are dropped, not run in a burst.
///
/// ```swift
/// let link = DisplayLink(framesPerSecond: 60) { link in render(after: link.duration) }
/// link.start()
/// ```
public final class DisplayLink: Sendable {
    /// Called on the clock's thread at each refresh, with the link.
    public typealias Callback = @Sendable (DisplayLink) -> Void

    private struct State {
        var timer: AnimationTimer?
        /// Bumped by each start and stop, so that a refresh scheduled before is dropped.
        var run = 0
        var nextRefresh = 0.0
        var lastRefresh: Double?
        var duration: Double
    }

    /// The clock the link follows.
    public let clock: any AnimationClock
    /// Seconds between two refreshes.
    public let interval: Double
    private let callback: Callback
    private let state: NIOLockedValueBox<State>

    /// A stopped link that, once started, calls `callback` `framesPerSecond` times a second
    /// of `clock`.
    ///
    /// - Precondition: `framesPerSecond` is above 0.
    public init(clock: any AnimationClock = SystemAnimationClock(), framesPerSecond: Double = 60, callback: @escaping Callback) {
        precondition(framesPerSecond > 0, "a display link needs a rate above 0")
        self.clock = clock
        interval = 1 / framesPerSecond
        self.callback = callback
        state = NIOLockedValueBox(State(duration: 1 / framesPerSecond))
    }

    deinit {
        state.withLockedValue { $0.timer?.cancel() }
    }

    /// Whether the link is calling back.
    public var isRunning: Bool {
        state.withLockedValue { $0.timer != nil }
    }

    /// Seconds between the last two refreshes (SDWebImage's `duration`): the interval until
    /// two have happened since ``start()``, then what the clock measured.
    public var duration: Double {
        state.withLockedValue { $0.duration }
    }

    /// Starts calling back, the first time one interval from now. Does nothing while running.
    public func start() {
        state.withLockedValue { state in
            guard state.timer == nil else { return }
            state.run += 1
            state.lastRefresh = nil
            state.duration = interval
            state.nextRefresh = clock.now + interval
            schedule(&state)
        }
    }

    /// Stops calling back; a refresh already due does not run. Does nothing when stopped.
    public func stop() {
        state.withLockedValue { state in
            state.timer?.cancel()
            state.timer = nil
            state.run += 1
        }
    }

    private func schedule(_ state: inout State) {
        let run = state.run
        state.timer = clock.schedule(at: state.nextRefresh) { [weak self] in
            self?.refresh(run: run)
        }
    }

    private func refresh(run: Int) {
        let isCurrent = state.withLockedValue { state -> Bool in
            guard state.run == run, state.timer != nil else { return false }
            let now = clock.now
            if let last = state.lastRefresh { state.duration = now - last }
            state.lastRefresh = now
            // The next whole interval after now: late refreshes are dropped, not bunched.
            let missed = ((now - state.nextRefresh) / interval).rounded(.down)
            state.nextRefresh += interval * (max(0, missed) + 1)
            schedule(&state)
            return true
        }
        if isCurrent { callback(self) }
    }
}
