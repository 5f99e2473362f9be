extension AnimatedImagePlayer {
    /// The seconds frame `index` shows at the current rate.
    func slot(of index: Int, _ state: PlayerState) -> Double {
        max(state.animation.frameDurations[index], AnimatedImagePlayer.minimumFrameDuration) / state.rate
    }

    /// Schedules the end of the current frame's time at ``PlayerState/deadline``.
    func schedule(_ state: inout PlayerState) {
        state.timer?.cancel()
        state.tick += 1
        let tick = state.tick
        state.timer = clock.schedule(at: state.deadline) { [weak self] in
            self?.advance(tick: tick)
        }
    }

    func cancelTimer(_ state: inout PlayerState) {
        state.timer?.cancel()
        state.timer = nil
        state.tick += 1
    }

    /// Shows the frame at the current position if it has decoded (or skips it if it cannot
    /// decode), starting its time — or, paused, keeping its whole time for ``play()``;
    /// otherwise keeps waiting.
    func showWaitingFrame(_ state: inout PlayerState) -> [PlayerEffect] {
        let isPaused = state.phase == .paused(remaining: nil)
        guard state.phase == .waitingForFrame || isPaused else { return [] }
        let index = state.sequence.frame(at: state.position)
        var effects: [PlayerEffect] = []
        if let frame = takeBuffered(index, &state) {
            state.currentIndex = index
            state.currentFrame = frame
            effects.append(.frameChanged(index, frame))
        } else if state.failedFrames.contains(index) {
            state.skippedFrames += 1
        } else {
            return []
        }
        if isPaused {
            state.phase = .paused(remaining: slot(of: index, state))
            return effects
        }
        state.phase = .playing
        state.deadline = clock.now + slot(of: index, state)
        schedule(&state)
        return effects
    }

    /// The current frame's time is over: moves to the next position, finishing a loop (and
    /// maybe the playback) on the way, and shows the next frame or skips it. At the end of
    /// an incomplete animation it holds the frame showing instead.
    func advance(tick: Int) {
        let effects = state.withLockedValue { state -> [PlayerEffect] in
            guard state.phase == .playing, state.tick == tick else { return [] }
            state.timer = nil
            var effects: [PlayerEffect] = []
            guard let next = nextPosition(&state, &effects) else { return effects }
            state.position = next
            let index = state.sequence.frame(at: next)
            if let frame = takeBuffered(index, &state) {
                state.currentIndex = index
                state.currentFrame = frame
                effects.append(.frameChanged(index, frame))
            } else {
                state.skippedFrames += 1
            }
            state.deadline += slot(of: index, state)
            schedule(&state)
            return effects + refill(&state)
        }
        perform(effects)
    }

    /// Holds the frame showing when the pass is over on an incomplete animation; else moves
    /// on: the position after the current one, or 0 with a loop finished. `nil` when the
    /// player held, or finished its loops.
    private func nextPosition(_ state: inout PlayerState, _ effects: inout [PlayerEffect]) -> Int? {
        let next = state.position + 1
        guard next == state.sequence.length else { return next }
        guard state.animation.isComplete else {
            state.phase = .holding
            effects += refill(&state)
            return nil
        }
        state.finishedLoops += 1
        effects.append(.loopFinished(state.finishedLoops))
        if state.loopCount > 0, state.finishedLoops >= state.loopCount {
            effects += finish(&state)
            return nil
        }
        return 0
    }

    /// Leaves ``PlayerState/Phase/holding`` once the animation has grown (or is complete):
    /// the next frame shows as soon as it has decoded, its time starting then.
    func resumeAfterHolding(_ state: inout PlayerState) -> [PlayerEffect] {
        state.phase = .playing
        var effects: [PlayerEffect] = []
        guard let next = nextPosition(&state, &effects) else { return effects }
        state.position = next
        state.phase = .waitingForFrame
        return effects + showWaitingFrame(&state) + refill(&state)
    }

    /// Ends the playback: a bounce comes back to where it started (showing that frame if it
    /// has decoded); the buffer is emptied.
    private func finish(_ state: inout PlayerState) -> [PlayerEffect] {
        var effects: [PlayerEffect] = []
        state.phase = .finished
        switch state.sequence.mode {
        case .normal, .reverse:
            state.position = state.sequence.length - 1
        case .bounce, .reversedBounce:
            state.position = 0
            let index = state.sequence.frame(at: 0)
            if index != state.currentIndex, let frame = takeBuffered(index, &state) {
                state.currentIndex = index
                state.currentFrame = frame
                effects.append(.frameChanged(index, frame))
            }
        }
        leaveBudget(&state)
        state.generation += 1
        state.decodingFrame = nil
        return effects + [.finished]
    }

    /// Runs the callbacks and starts the decodes `effects` name, outside the lock.
    func perform(_ effects: [PlayerEffect]) {
        guard !effects.isEmpty else { return }
        let (onFrameChange, onLoopFinish, onFinish) = state.withLockedValue { ($0.onFrameChange, $0.onLoopFinish, $0.onFinish) }
        for effect in effects {
            switch effect {
            case .frameChanged(let index, let frame):
                onFrameChange?(index, frame)
            case .loopFinished(let loops):
                onLoopFinish?(loops)
            case .finished:
                onFinish?()
            case .decode(let frame, let generation):
                DecodingWorkers.submit { [weak self] in
                    self?.decode(frame, generation: generation)
                }
            }
        }
    }
}
