extension AnimatedImagePlayer {
    /// The byte limit of the buffer by the player's own setting: ``maxBufferSize``, or the
    /// automatic size.
    func ownBufferLimit(_ state: PlayerState) -> Int {
        if state.maxBufferSize > 0 { return state.maxBufferSize }
        let bytes = frameBytes(state)
        let frames = min(state.animation.frameCount, max(1, AnimatedImagePlayer.automaticBufferBudget / bytes))
        return frames * bytes
    }

    /// The byte limit of the buffer: the player's own, within what its frame budget allows.
    func bufferLimit(_ state: PlayerState) -> Int {
        let own = ownBufferLimit(state)
        guard let allowed = budgetBufferAllowance(state) else { return own }
        return min(own, allowed)
    }

    /// The frames wanted in the buffer, soonest first: those of the positions after the
    /// current one (from the current one while it is awaited), as many as the limit holds;
    /// for an incomplete animation, only up to the end of the frames received.
    func window(_ state: PlayerState) -> [Int] {
        // Until a frame has decoded its size is a guess (a frame transformer may change it),
        // so one frame is always wanted; afterwards only as many as fit.
        let count = state.measuredFrameBytes.map { min(state.animation.frameCount, bufferLimit(state) / max(1, $0)) } ?? 1
        guard count > 0 else { return [] }
        let first =
            state.phase == .waitingForFrame || state.phase == .paused(remaining: nil)
            ? state.position : state.position + 1
        var frames: [Int] = []
        var position = first
        let end = state.animation.isComplete ? first + state.sequence.length : state.sequence.length
        while frames.count < count, position < end {
            let frame = state.sequence.frame(at: position % state.sequence.length)
            if !frames.contains(frame) { frames.append(frame) }
            position += 1
        }
        return frames
    }

    /// Removes `index` from the buffer and returns it, if buffered, as the frame showing.
    func takeBuffered(_ index: Int, _ state: inout PlayerState) -> ImageFrame? {
        guard let frame = state.buffer.removeValue(forKey: index) else { return nil }
        state.bufferedBytes -= frame.bitmap.byteCount
        charge(currentFrameBytes: frame.bitmap.byteCount, &state)
        return frame
    }

    /// Drops the buffered frames not in `wanted`, giving their bytes back to the budget.
    private func drop(framesOutside wanted: [Int], _ state: inout PlayerState) {
        var dropped = 0
        for index in state.buffer.keys where !wanted.contains(index) {
            dropped += state.buffer.removeValue(forKey: index)?.bitmap.byteCount ?? 0
        }
        state.bufferedBytes -= dropped
        if state.isInBudget { frameBudget.release(dropped, for: budgetKey) }
    }

    /// Drops buffered frames no longer ahead (or beyond what the budget now allows), and
    /// names the next frame to decode when none is decoding, it fits in the limit and the
    /// budget grants its bytes.
    func refill(_ state: inout PlayerState) -> [PlayerEffect] {
        guard state.isActive else { return [] }
        syncBudget(&state)
        let wanted = window(state)
        drop(framesOutside: wanted, &state)
        guard state.decodingFrame == nil,
            let next = wanted.first(where: { state.buffer[$0] == nil && !state.failedFrames.contains($0) })
        else { return [] }
        if let frameBytes = state.measuredFrameBytes, state.bufferedBytes + frameBytes > bufferLimit(state) {
            return []
        }
        let bytes = frameBytes(state)
        guard frameBudget.reserve(bytes, for: budgetKey) else { return [] }
        state.decodeCharge = bytes
        state.decodingFrame = next
        return [.decode(frame: next, generation: state.generation)]
    }

    /// Decodes frame `index` on a decoding thread and puts it in the buffer, if the player
    /// still wants it and it fits; then shows it if it was awaited, and asks for the next.
    func decode(_ index: Int, generation: Int) {
        let animation = state.withLockedValue { $0.animation }
        let decoded: ImageFrame?
        do throws(ImageError) {
            var frame = try animation.frame(at: index)
            if let frameTransformer, let transformed = frameTransformer.transform(Image(bitmap: frame.bitmap)) {
                frame.bitmap = transformed.bitmap
            }
            decoded = frame
        } catch {
            decoded = nil
        }
        let effects = state.withLockedValue { state -> [PlayerEffect] in
            state.settledDecodeCount += 1
            guard state.generation == generation, state.decodingFrame == index else { return [] }
            state.decodingFrame = nil
            let reserved = state.decodeCharge
            state.decodeCharge = 0
            guard let decoded else {
                state.failedFrames.insert(index)
                frameBudget.release(reserved, for: budgetKey)
                return showWaitingFrame(&state) + refill(&state)
            }
            keep(decoded, as: index, reserved: reserved, &state)
            return showWaitingFrame(&state) + refill(&state)
        }
        perform(effects)
    }

    /// Puts a decoded frame in the buffer if it is still wanted and fits, settling its bytes
    /// with the `reserved` ones (a guess until a frame has decoded); else gives them back.
    private func keep(_ decoded: ImageFrame, as index: Int, reserved: Int, _ state: inout PlayerState) {
        let bytes = decoded.bitmap.byteCount
        if state.measuredFrameBytes != bytes {
            state.measuredFrameBytes = bytes
            syncBudget(&state)
        }
        let wanted = window(state)
        drop(framesOutside: wanted, &state)
        let fits = wanted.contains(index) && state.bufferedBytes + bytes <= bufferLimit(state)
        guard fits, bytes <= reserved || frameBudget.reserve(bytes - reserved, for: budgetKey) else {
            frameBudget.release(reserved, for: budgetKey)
            return
        }
        frameBudget.release(max(0, reserved - bytes), for: budgetKey)
        state.buffer[index] = decoded
        state.bufferedBytes += bytes
    }
}
