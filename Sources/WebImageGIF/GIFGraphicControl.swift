import WebImageCore
/// What a Graphics Control Extension says about the image that follows it.
struct GIFGraphicControl: Equatable {
    /// How the frame's area is treated before the next frame is drawn.
    enum Disposal: Equatable {
        /// Leave the frame in place (codes 0 and 1, and unknown codes).
        case keep
        /// Clear the frame's rectangle to transparent (code 2).
        case background
        /// Restore what was there before the frame was drawn (code 3).
        case previous
    }

    /// The delay in hundredths of a second.
    var delay = 0
    /// The palette index drawn as transparent, if any.
    var transparentIndex: Int?
    /// What happens to the frame's area after it has shown.
    var disposal = Disposal.keep

    /// The seconds a frame shows: a delay under 0.011 s shows for 0.1 s, as browsers do.
    var duration: Double {
        let seconds = Double(delay) / 100
        return seconds < 0.011 ? 0.1 : seconds
    }

    /// Parses the extension's first sub-block (packed flags, delay, transparent index);
    /// `nil` when it is shorter than the four bytes the format requires.
    init?(block: UnsafeBufferPointer<UInt8>) {
        guard block.count >= 4 else { return nil }
        let packed = block[0]
        switch (packed >> 2) & 0x07 {
        case 2: disposal = .background
        case 3: disposal = .previous
        default: disposal = .keep
        }
        delay = Int(block[1]) | Int(block[2]) << 8
        transparentIndex = packed & 0x01 != 0 ? Int(block[3]) : nil
    }

    /// The control of a frame without an extension: no delay, no transparency, kept.
    init() {}
}
