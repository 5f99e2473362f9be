import Foundation
import WebImageCore

/// A Gaussian sampled out to 3σ as a symmetric mask of 16-bit fixed-point weights, for
/// blurring 8-bit pixels with integer arithmetic: the separable mask libvips uses for
/// small sigmas, where it costs a few taps per pixel instead of Deriche's fixed cost.
///
/// Values are 16-bit with 8 fraction bits (a byte `v` is `v << 8`). Each tap is the high
/// half of a 16 × 16-bit product (weights sum to 2¹⁶), eight lanes at a time, so both
/// passes are SSE2's `pmulhuw` and `paddw`; a horizontal pass keeps its 8 fraction bits
/// for the vertical pass, which rounds to bytes at the end. Each product is truncated,
/// so the result is at most 2 × taps / 256 of a level low; adding `taps / 256` centres
/// that error, which stays below a quarter of a level for the masks used (radius < 64).
struct IntegerGaussianKernel: Sendable {
    /// Taps on each side of the centre.
    let radius: Int
    /// The weight at offsets ±d in `weights[d]`, d from 0 to `radius`, summing (both
    /// sides) to 2¹⁶ but for the centre, which is at most 65535.
    let weights: [UInt16]

    /// The sampled Gaussian of `sigma` out to ⌈3σ⌉ (at least one tap a side), normalised
    /// to 2¹⁶, its zero outer weights dropped.
    init(sigma: Double) {
        let reach = max(1, Int((3 * sigma).rounded(.up)))
        let exact = (0...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = exact[0] + 2 * exact.dropFirst().reduce(0, +)
        var integers = exact.map { Int(($0 / total * 65536).rounded()) }
        integers[0] += 65536 - (integers[0] + 2 * integers.dropFirst().reduce(0, +))
        integers[0] = min(integers[0], 65535)
        var radius = reach
        while radius > 1, integers[radius] == 0 { radius -= 1 }
        precondition(radius < 64, "an integer mask this wide could overflow its 16-bit sums")
        self.radius = radius
        weights = integers[0...radius].map { UInt16($0) }
    }

    /// The mask's length.
    var taps: Int { 2 * radius + 1 }

    /// One row across: `padded` holds the row's values with its first and last pixel
    /// repeated `radius` times before and after (`channels` values a pixel); `count`
    /// values (`count / channels` pixels) go to `output`.
    func blurAcross(
        _ padded: UnsafePointer<UInt16>, count: Int, channels: Int, into output: UnsafeMutablePointer<UInt16>
    ) {
        let centre = padded + radius * channels
        weights.withUnsafeBufferPointer { weights in
            var index = 0
            // Thirty-two values (four registers) a step, so that each weight is
            // broadcast once for four products; then eight, then one.
            while index + 32 <= count {
                let middle = centre + index
                var sum = Quad(middle, weights[0])
                var offset = 0
                for d in 1..<weights.count {
                    offset &+= channels
                    sum.add(middle - offset, weights[d])
                    sum.add(middle + offset, weights[d])
                }
                sum.store(output + index)
                index += 32
            }
            while index + 8 <= count {
                let middle = centre + index
                var sum = Self.high(Self.load8(middle), weights[0])
                var offset = 0
                for d in 1..<weights.count {
                    offset &+= channels
                    sum &+= Self.high(Self.load8(middle - offset), weights[d])
                    sum &+= Self.high(Self.load8(middle + offset), weights[d])
                }
                UnsafeMutableRawPointer(output + index).storeBytes(of: sum, as: SIMD8<UInt16>.self)
                index += 8
            }
            while index < count {
                let middle = centre + index
                var sum = Self.high(middle[0], weights[0])
                var offset = 0
                for d in 1..<weights.count {
                    offset &+= channels
                    sum &+= Self.high(middle[-offset], weights[d]) &+ Self.high(middle[offset], weights[d])
                }
                output[index] = sum
                index += 1
            }
        }
    }

    /// One row down: `rows[t]` is the horizontal pass's row at offset `t - radius` from
    /// the output row (edges already repeated); `count` values are rounded to bytes.
    func blurDown(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, count: Int, into output: UnsafeMutablePointer<UInt8>
    ) {
        let radius = self.radius
        let bias = UInt16(128 + taps)
        weights.withUnsafeBufferPointer { weights in
            var index = 0
            while index + 32 <= count {
                var sum = Quad(rows[radius] + index, weights[0])
                for d in 1..<weights.count {
                    sum.add(rows[radius - d] + index, weights[d])
                    sum.add(rows[radius + d] + index, weights[d])
                }
                sum.storeBytes(output + index, bias: bias)
                index += 32
            }
            while index + 8 <= count {
                var sum = Self.high(Self.load8(rows[radius] + index), weights[0]) &+ SIMD8(repeating: bias)
                for d in 1..<weights.count {
                    sum &+= Self.high(Self.load8(rows[radius - d] + index), weights[d])
                    sum &+= Self.high(Self.load8(rows[radius + d] + index), weights[d])
                }
                let bytes = SIMD8<UInt8>(truncatingIfNeeded: sum &>> 8)
                UnsafeMutableRawPointer(output + index).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
                index += 8
            }
            while index < count {
                var sum = Self.high(rows[radius][index], weights[0]) &+ bias
                for d in 1..<weights.count {
                    sum &+= Self.high(rows[radius - d][index], weights[d]) &+ Self.high(rows[radius + d][index], weights[d])
                }
                output[index] = UInt8(truncatingIfNeeded: sum >> 8)
                index += 1
            }
        }
    }

    /// `bytes` (`pixels` pixels of `channels` bytes) as 8.8 fixed-point values in
    /// `padded`, the first and last pixel repeated `radius` times on either side.
    func pad(_ bytes: UnsafePointer<UInt8>, pixels: Int, channels: Int, into padded: UnsafeMutablePointer<UInt16>) {
        let start = padded + radius * channels
        let count = pixels * channels
        for index in 0..<count { start[index] = UInt16(bytes[index]) &<< 8 }
        repeatEdges(padded, pixels: pixels, channels: channels)
    }

    /// Fills the `radius` pixels before and after the `pixels` pixels at
    /// `padded + radius × channels` with copies of the first and last.
    func repeatEdges(_ padded: UnsafeMutablePointer<UInt16>, pixels: Int, channels: Int) {
        let start = padded + radius * channels
        let last = start + (pixels - 1) * channels
        for copy in 0..<radius {
            for channel in 0..<channels {
                padded[copy * channels + channel] = start[channel]
                last[(copy + 1) * channels + channel] = last[channel]
            }
        }
    }

    /// Values a padded row of `pixels` pixels takes.
    func paddedCount(pixels: Int, channels: Int) -> Int { (pixels + 2 * radius) * channels }

    @inline(__always)
    private static func load8(_ pointer: UnsafePointer<UInt16>) -> SIMD8<UInt16> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<UInt16>.self)
    }

    /// The high half of each lane's product with `weight` (`pmulhuw`).
    @inline(__always)
    private static func high(_ value: SIMD8<UInt16>, _ weight: UInt16) -> SIMD8<UInt16> {
        SIMD8<UInt16>(
            truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: value) &* SIMD8<UInt32>(repeating: UInt32(weight))) &>> 16)
    }

    @inline(__always)
    private static func high(_ value: UInt16, _ weight: UInt16) -> UInt16 {
        UInt16(truncatingIfNeeded: (UInt32(value) * UInt32(weight)) >> 16)
    }

    /// Thirty-two neighbouring sums in four registers.
    private struct Quad {
        var a, b, c, d: SIMD8<UInt16>

        /// The first products: the 32 values at `pointer` times `weight`.
        @inline(__always)
        init(_ pointer: UnsafePointer<UInt16>, _ weight: UInt16) {
            a = IntegerGaussianKernel.high(IntegerGaussianKernel.load8(pointer), weight)
            b = IntegerGaussianKernel.high(IntegerGaussianKernel.load8(pointer + 8), weight)
            c = IntegerGaussianKernel.high(IntegerGaussianKernel.load8(pointer + 16), weight)
            d = IntegerGaussianKernel.high(IntegerGaussianKernel.load8(pointer + 24), weight)
        }

        @inline(__always)
        mutating func add(_ pointer: UnsafePointer<UInt16>, _ weight: UInt16) {
            a &+= IntegerGaussianKernel.high(IntegerGaussianKernel.load8(pointer), weight)
            b &+= IntegerGaussianKernel.high(IntegerGaussianKernel.load8(pointer + 8), weight)
            c &+= IntegerGaussianKernel.high(IntegerGaussianKernel.load8(pointer + 16), weight)
            d &+= IntegerGaussianKernel.high(IntegerGaussianKernel.load8(pointer + 24), weight)
        }

        @inline(__always)
        func store(_ pointer: UnsafeMutablePointer<UInt16>) {
            let raw = UnsafeMutableRawPointer(pointer)
            raw.storeBytes(of: a, toByteOffset: 0, as: SIMD8<UInt16>.self)
            raw.storeBytes(of: b, toByteOffset: 16, as: SIMD8<UInt16>.self)
            raw.storeBytes(of: c, toByteOffset: 32, as: SIMD8<UInt16>.self)
            raw.storeBytes(of: d, toByteOffset: 48, as: SIMD8<UInt16>.self)
        }

        /// The sums plus `bias`, divided by 256, as bytes.
        @inline(__always)
        func storeBytes(_ pointer: UnsafeMutablePointer<UInt8>, bias: UInt16) {
            let raw = UnsafeMutableRawPointer(pointer)
            let bias = SIMD8<UInt16>(repeating: bias)
            raw.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: (a &+ bias) &>> 8), toByteOffset: 0, as: SIMD8<UInt8>.self)
            raw.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: (b &+ bias) &>> 8), toByteOffset: 8, as: SIMD8<UInt8>.self)
            raw.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: (c &+ bias) &>> 8), toByteOffset: 16, as: SIMD8<UInt8>.self)
            raw.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: (d &+ bias) &>> 8), toByteOffset: 24, as: SIMD8<UInt8>.self)
        }
    }
}
