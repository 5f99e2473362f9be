/// One colour channel of a bit-field BMP: where its bits sit in a pixel and how to widen
/// them to eight.
struct BMPChannelMask: Sendable, Equatable {
    /// The mask as stored in the header.
    let mask: UInt32
    /// How far the channel's lowest bit is from bit 0.
    let shift: Int
    /// The largest value the channel can hold once shifted down.
    let maximum: UInt32

    /// A channel for `mask`; an empty mask gives a channel that reads as 0.
    init(_ mask: UInt32) {
        self.mask = mask
        shift = mask == 0 ? 0 : mask.trailingZeroBitCount
        maximum = mask >> shift
    }

    /// Whether the mask selects no bits.
    var isEmpty: Bool { mask == 0 }

    /// The channel of `pixel` scaled to 0…255: a channel of up to 8 bits is scaled and
    /// rounded to the nearest value, a wider one keeps its top 8 bits.
    @inline(__always)
    func value(in pixel: UInt32) -> UInt8 {
        guard maximum != 0 else { return 0 }
        let raw = (pixel & mask) >> shift
        if maximum > 0xFF {
            return UInt8(truncatingIfNeeded: raw >> (UInt32.bitWidth - maximum.leadingZeroBitCount - 8))
        }
        return UInt8(truncatingIfNeeded: (raw * 255 + maximum / 2) / maximum)
    }
}
