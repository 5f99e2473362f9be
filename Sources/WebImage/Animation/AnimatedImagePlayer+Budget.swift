extension AnimatedImagePlayer {
    /// The player's key in its ``frameBudget``.
    var budgetKey: ObjectIdentifier { ObjectIdentifier(self) }

    /// The bytes of one frame: as decoded (and transformed), or the animation's canvas until
    /// one has decoded.
    func frameBytes(_ state: PlayerState) -> Int {
        max(1, state.measuredFrameBytes ?? state.animation.frameByteCount)
    }

    /// The frame showing and the next one: what the budget grants whatever else plays.
    func minimumHeld(_ state: PlayerState) -> Int {
        min(2, state.animation.frameCount) * frameBytes(state)
    }

    /// The frame showing and a full buffer of the player's own limit.
    func wantedHeld(_ state: PlayerState) -> Int {
        frameBytes(state) + ownBufferLimit(state)
    }

    /// Counts the player in its budget as the most recently started (on `play()`), or, once
    /// counted, tells the budget what it needs now.
    func syncBudget(_ state: inout PlayerState, played: Bool = false) {
        if played || !state.isInBudget {
            frameBudget.join(self, minimum: minimumHeld(state), wanted: wantedHeld(state), isVisible: state.isVisible)
            state.isInBudget = true
        } else {
            frameBudget.update(budgetKey, minimum: minimumHeld(state), wanted: wantedHeld(state), isVisible: state.isVisible)
        }
    }

    /// Empties the buffer and counts the player out of its budget with everything it held
    /// (the frame showing stays, no longer counted).
    func leaveBudget(_ state: inout PlayerState) {
        state.buffer = [:]
        state.bufferedBytes = 0
        state.currentFrameCharge = 0
        state.decodeCharge = 0
        guard state.isInBudget else { return }
        frameBudget.leave(budgetKey)
        state.isInBudget = false
    }

    /// The bytes the budget allows the buffer: the player's allowance less its frame
    /// showing; `nil` when the player is not counted in.
    func budgetBufferAllowance(_ state: PlayerState) -> Int? {
        guard state.isInBudget, let allowance = frameBudget.allowance(of: budgetKey) else { return nil }
        return allowance - state.currentFrameCharge
    }

    /// Makes `frame`, taken from the buffer, the frame showing: its bytes stay counted and
    /// those of the frame it replaces are given back.
    func charge(currentFrameBytes bytes: Int, _ state: inout PlayerState) {
        guard state.isInBudget else { return }
        frameBudget.release(state.currentFrameCharge, for: budgetKey)
        state.currentFrameCharge = bytes
    }

    /// The budget changed: gives back frames beyond the allowance, or asks for the frames
    /// it now has room for.
    func budgetDidChange() {
        let effects = state.withLockedValue { refill(&$0) }
        perform(effects)
    }
}
