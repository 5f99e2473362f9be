import WebImageCore

/// Adds grain: the same random value to the three colour channels of each pixel, alpha
/// kept — thumbor's `noise(amount, seed)` filter (`noise=AMOUNT[,seed=N]` in a transform
/// spec).
///
/// The values come from the C library's `random()` seeded with ``seed``, one a pixel in
/// reading order: `random() mod amount − ⌊amount ÷ 2⌋` 8-bit levels, so a seeded noise is
/// thumbor's exactly and the same request always makes the same picture. Each frame starts
/// from the seed.
public struct NoiseImageTransformer: ImageTransformer {
    /// The spread of the values in 8-bit levels, 0 (none) to 100.
    public var amount: Int
    /// The generator's seed; 0 draws as the seed 1 does.
    public var seed: UInt32

    /// Creates a transformer adding noise of `amount` levels drawn from `seed`.
    public init(amount: Int, seed: UInt32 = 0) {
        self.amount = amount
        self.seed = seed
    }

    /// `noise-AMOUNT-sSEED`.
    public var key: String { "noise-\(amount)-s\(seed)" }

    /// The image with noise; `nil` for an amount of 0 or less.
    public func transform(_ image: Image) -> Image? {
        guard amount > 0 else { return nil }
        let (amount, half) = (amount, amount / 2)
        return image.replacingFrames { bitmap in
            var random = AdditiveFeedbackRandom(seed: seed)
            return bitmap.mappingRowsInOrder { _, row in
                for x in 0..<bitmap.width {
                    let level = Float(random.next() % amount - half) / 255
                    row[x] += SIMD4(level, level, level, 0)
                }
            }
        }
    }
}
