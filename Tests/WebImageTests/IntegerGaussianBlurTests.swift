import Foundation
import Testing
@testable import WebImage
@testable import WebImageProcessing
import WebImageTestSupport

/// The integer mask that blurs opaque 8-bit pixels below `Bitmap.integerBlurMaximumSigma`
/// (issue 41): against a Gaussian computed in double precision, at the edges, with alpha,
/// against Deriche's filter at the crossover, and on pictures narrower than the mask.
@Suite struct IntegerGaussianBlurTests {
    /// The existing blur tests' tolerance: 1% of the peak, here a full 255.
    static let tolerance = 0.01 * 255

    /// Opaque noise with a hard vertical and horizontal edge, `width × height`.
    static func picture(_ width: Int, _ height: Int, seed: UInt32 = 5) -> Bitmap {
        var state = seed
        return Bitmap.painted(width, height) { x, y in
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = UInt8(state >> 26)
            let light = x < width / 2 || y < height / 3
            return RGBA8(red: light ? 230 &- noise : 20 &+ noise, green: UInt8(x * 255 / max(1, width - 1)), blue: noise &* 4)
        }
    }

    /// `bitmap` convolved with the Gaussian of `sigma` sampled out to 8σ, in double
    /// precision, edges repeating the border pixels; channels red, green, blue.
    static func reference(_ bitmap: Bitmap, sigma: Double) -> [[SIMD3<Double>]] {
        let radius = Int((8 * sigma).rounded(.up))
        let weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        let w = bitmap.width, h = bitmap.height
        func pixel(_ x: Int, _ y: Int) -> SIMD3<Double> {
            let p = bitmap.rgba8(x: x, y: y)
            return SIMD3(Double(p.red), Double(p.green), Double(p.blue))
        }
        var across = [[SIMD3<Double>]](repeating: [SIMD3<Double>](repeating: .zero, count: w), count: h)
        for y in 0..<h {
            for x in 0..<w {
                var sum = SIMD3<Double>.zero
                for t in -radius...radius { sum += pixel(min(max(x + t, 0), w - 1), y) * weights[t + radius] }
                across[y][x] = sum / total
            }
        }
        var down = across
        for y in 0..<h {
            for x in 0..<w {
                var sum = SIMD3<Double>.zero
                for t in -radius...radius { sum += across[min(max(y + t, 0), h - 1)][x] * weights[t + radius] }
                down[y][x] = sum / total
            }
        }
        return down
    }

    /// The largest difference of a colour channel between `bitmap` and `reference`.
    static func largestError(_ bitmap: Bitmap, _ reference: [[SIMD3<Double>]]) -> Double {
        var worst = 0.0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.rgba8(x: x, y: y)
                let difference = SIMD3(Double(p.red), Double(p.green), Double(p.blue)) - reference[y][x]
                worst = max(worst, abs(difference.x), abs(difference.y), abs(difference.z))
            }
        }
        return worst
    }

    @Test(arguments: [0.5, 0.8, 1.0, 2.0, 3.0, 5.0, 9.5, 10.0])
    func theIntegerMaskFollowsTheGaussian(sigma: Double) throws {
        #expect(sigma < Bitmap.integerBlurMaximumSigma, "the sigma takes the integer path")
        let picture = Self.picture(61, 47)
        let blurred = try picture.gaussianBlurred(sigma: sigma)
        let sameAsTheMask = try blurred == picture.blurred(with: IntegerGaussianKernel(sigma: sigma))
        #expect(sameAsTheMask)
        let error = Self.largestError(blurred, Self.reference(picture, sigma: sigma))
        #expect(error <= Self.tolerance, "worst error \(error) levels")
    }

    @Test func theMaskIsNormalisedAndSymmetric() {
        for sigma in [0.1, 0.3, 0.5, 1, 2, 4, 7.5] {
            let kernel = IntegerGaussianKernel(sigma: sigma)
            let sum = Int(kernel.weights[0]) + 2 * kernel.weights.dropFirst().reduce(0) { $0 + Int($1) }
            #expect(sum == 65536 || (sum == 65535 && kernel.weights[0] == 65535), "\(sigma): \(sum)")
            #expect(kernel.weights == kernel.weights.sorted(by: >), "\(sigma) falls away from the centre")
            #expect(kernel.radius <= max(1, Int((3 * sigma).rounded(.up))))
        }
    }

    /// A flat picture stays flat at every level, and opaque stays opaque.
    @Test(arguments: [0.5, 2.0, 9.9])
    func flatPicturesStayFlat(sigma: Double) throws {
        for level in [0, 1, 127, 128, 254, 255] as [UInt8] {
            let flat = Bitmap.solid(40, 9, RGBA8(red: level, green: 255 - level, blue: level / 2, alpha: 255))
            let stillFlat = try flat.gaussianBlurred(sigma: sigma) == flat
            #expect(stillFlat, "level \(level)")
        }
    }

    /// The edges repeat the border pixels, as the float filters do: a ramp across is
    /// blurred the same in every row, a ramp down the same in every column, both as the
    /// double-precision reference (which clamps) says.
    @Test func edgesRepeatTheBorderPixelsOnEverySide() throws {
        let across = Bitmap.painted(50, 12) { x, _ in RGBA8(red: UInt8(x * 5), green: x < 3 ? 255 : 0, blue: x > 46 ? 255 : 0) }
        let down = Bitmap.painted(12, 50) { _, y in RGBA8(red: UInt8(y * 5), green: y < 3 ? 255 : 0, blue: y > 46 ? 255 : 0) }
        for bitmap in [across, down] {
            let blurred = try bitmap.gaussianBlurred(sigma: 2.5)
            #expect(Self.largestError(blurred, Self.reference(bitmap, sigma: 2.5)) <= Self.tolerance)
            for y in 0..<12 {
                if bitmap.width == 50 {
                    #expect((0..<50).allSatisfy { blurred.rgba8(x: $0, y: y) == blurred.rgba8(x: $0, y: 0) })
                } else {
                    #expect((0..<50).allSatisfy { blurred.rgba8(x: y, y: $0) == blurred.rgba8(x: 0, y: $0) })
                }
            }
        }
    }

    /// Opaque pixels keep an alpha of 255; pictures with transparency (and 16-bit ones)
    /// keep the premultiplied float blur exactly as before.
    @Test func alphaIsTreatedAsBefore() throws {
        let opaque = Self.picture(33, 21)
        let blurred = try opaque.gaussianBlurred(sigma: 2)
        #expect((0..<21).allSatisfy { y in (0..<33).allSatisfy { blurred.rgba8(x: $0, y: y).alpha == 255 } })
        let clear = Bitmap.painted(40, 20) { x, y in
            x < 20 ? RGBA8(red: 255, green: UInt8(y * 12), blue: 40) : RGBA8(red: 0, green: 0, blue: 0, alpha: UInt8(x * 3))
        }
        #expect(clear.containsTransparency)
        let clearAsBefore = try clear.gaussianBlurred(sigma: 2) == clear.blurredWithFloats(sigma: 2, premultiplying: true)
        #expect(clearAsBefore)
        let deep = Bitmap.painted16(9, 7) { x, y in [UInt16(x * 7000), UInt16(y * 9000), 300, 65535] }
        let deepAsBefore = try deep.gaussianBlurred(sigma: 1.5) == deep.blurredWithFloats(sigma: 1.5, premultiplying: false)
        #expect(deepAsBefore)
    }

    /// At the crossover the integer mask and Deriche's filter give the same picture
    /// within the tolerance, so the choice of path does not show.
    @Test func bothPathsAgreeAtTheCrossover() throws {
        let sigma = Bitmap.integerBlurMaximumSigma
        let picture = Self.picture(97, 83, seed: 9)
        let integer = try picture.blurred(with: IntegerGaussianKernel(sigma: sigma))
        let recursive = try picture.gaussianBlurred(sigma: sigma)
        let recursiveFromTheCrossover = try recursive == picture.blurredWithFloats(sigma: sigma, premultiplying: false)
        #expect(recursiveFromTheCrossover, "Deriche from the crossover on")
        var worst = 0
        for y in 0..<83 {
            for x in 0..<97 {
                let a = integer.rgba8(x: x, y: y), b = recursive.rgba8(x: x, y: y)
                worst = max(worst, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
            }
        }
        #expect(Double(worst) <= Self.tolerance, "paths differ by \(worst) levels")
    }

    /// 1×1, one row, one column and pictures narrower or shorter than the mask.
    @Test(arguments: [(1, 1), (1, 9), (9, 1), (2, 3), (5, 40), (40, 5), (3, 3)])
    func oddSizes(width: Int, height: Int) throws {
        let picture = Self.picture(width, height, seed: UInt32(width * 31 + height))
        for sigma in [0.7, 3.0] {
            let blurred = try picture.gaussianBlurred(sigma: sigma)
            #expect(blurred.width == width && blurred.height == height)
            let error = Self.largestError(blurred, Self.reference(picture, sigma: sigma))
            #expect(error <= Self.tolerance, "\(width)×\(height) σ \(sigma): worst error \(error)")
        }
    }
}
