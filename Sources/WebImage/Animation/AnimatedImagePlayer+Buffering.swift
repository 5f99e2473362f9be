extension AnimatedImagePlayer {
    /// The byte limit of the buffer: ``maxBufferSize``, or the automatic size.
    func bufferLimit(_ state: PlayerState) -> Int {
        if state.maxBufferSize > 0 { return state.maxBufferSize }
        let frameBytes = max(1, state.measuredFrameBytes ?? state.animation.frameByteCount)
        let frames = min(state.animation.frameCount, max(1, AnimatedImagePlayer.automaticBufferBudget / frameBytes))
        return frames * frameBytes
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

    /// Removes `index` from the buffer and returns it, if buffered.
    func takeBuffered(_ index: Int, _ state: inout PlayerState) -> ImageFrame? {
        guard let frame = state.buffer.removeValue(forKey: index) else { return nil }
        state.bufferedBytes -= frame.bitmap.byteCount
        return frame
    }

    /// Drops buffered frames no longer ahead, and names the next frame to decode when none
    /// is decoding and it fits in the limit.
    func refill(_ state: inout PlayerState) -> [PlayerEffect] {
        guard state.isActive else { return [] }
        let wanted = window(state)
        for index in state.buffer.keys where !wanted.contains(index) {
            state.bufferedBytes -= state.buffer.removeValue(forKey: index)?.bitmap.byteCount ?? 0
        }
        guard state.decodingFrame == nil,
            let next = wanted.first(where: { state.buffer[$0] == nil && !state.failedFrames.contains($0) })
        else { return [] }
        if let frameBytes = state.measuredFrameBytes, state.bufferedBytes + frameBytes > bufferLimit(state) {
            return []
        }
        state.decodingFrame = next
        return [.decode(frame: next, generation: state.generation)]
    }

    /// Decodes frame `index` on a decoding thread and puts it in the buffer, if the player
    /// still wants it; then shows it if it was awaited, and asks for the next.
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
            if let decoded {
                let bytes = decoded.bitmap.byteCount
                state.measuredFrameBytes = bytes
                if window(state).contains(index), state.bufferedBytes + bytes <= bufferLimit(state) {
                    state.buffer[index] = decoded
                    state.bufferedBytes += bytes
                }
            } else {
                state.failedFrames.insert(index)
            }
            return showWaitingFrame(&state) + refill(&state)
        }
        perform(effects)
    }
}
