import Foundation

/// Finds the crop window a person would look at, after libvips' published `attention`
/// smart crop: on a reduced copy of the picture in CIE L*a*b*, a score adds the Sobel
/// edges of the lightness, a constant where the colour is a skin tone and one where it
/// is strongly saturated; the score is averaged onto a 32 × 32 grid, blurred by a
/// Gaussian whose width follows the window's, and the window is centred on the highest
/// cell, then moved inside the picture.
struct AttentionCropFinder {
    /// The picture analysed.
    let bitmap: Bitmap

    /// The side of the grid the score is gathered on: the precision of the placement.
    static let gridSide = 32
    /// The largest side of the copy the score is computed on.
    static let analysisSide = 256
    /// What a skin-coloured or saturated pixel adds, as much as a strong edge.
    static let regionWeight: Float = 255
    /// The a* and b* bounds of skin tones, and the least lightness of skin.
    static let skinA: ClosedRange<Float> = 3...22
    static let skinB: ClosedRange<Float> = 4...31
    static let skinLightness: Float = 15
    /// The least chroma counted as saturated.
    static let saturatedChroma: Float = 60

    /// The top-left corner of the window of `size` (no larger than the picture).
    func origin(of size: PixelSize) -> (x: Int, y: Int) {
        let scale = min(1, Double(Self.analysisSide) / Double(max(bitmap.width, bitmap.height)))
        let small =
            scale < 1
            ? bitmap.resized(to: PixelSize(width: max(3, Int((Double(bitmap.width) * scale).rounded())), height: max(3, Int((Double(bitmap.height) * scale).rounded()))))
            : bitmap
        let score = Self.score(small)
        let side = Self.gridSide
        // Each grid cell averages the score of the pixels that fall in it.
        var grid = [Float](repeating: 0, count: side * side)
        var counts = [Float](repeating: 0, count: side * side)
        for y in 0..<small.height {
            let row = min(side - 1, y * side / small.height)
            for x in 0..<small.width {
                let cell = row * side + min(side - 1, x * side / small.width)
                grid[cell] += score[y * small.width + x]
                counts[cell] += 1
            }
        }
        for index in grid.indices where counts[index] > 0 { grid[index] /= counts[index] }
        let cellWidth = Double(bitmap.width) / Double(side), cellHeight = Double(bitmap.height) / Double(side)
        let sigma = (pow(Double(size.width) / cellWidth, 2) + pow(Double(size.height) / cellHeight, 2)).squareRoot() / 6
        let blurred = Self.blur(grid, side: side, sigma: Float(max(sigma, 0.5)))
        var best = 0
        for index in blurred.indices where blurred[index] > blurred[best] { best = index }
        let centreX = (Double(best % side) + 0.5) * cellWidth, centreY = (Double(best / side) + 0.5) * cellHeight
        let x = Int((centreX - Double(size.width) / 2).rounded()), y = Int((centreY - Double(size.height) / 2).rounded())
        return (min(max(0, x), bitmap.width - size.width), min(max(0, y), bitmap.height - size.height))
    }

    /// The score of every pixel of `bitmap`: edges plus skin plus saturation.
    static func score(_ bitmap: Bitmap) -> [Float] {
        let width = bitmap.width, height = bitmap.height
        var lightness = [Float](repeating: 0, count: width * height)
        var score = [Float](repeating: 0, count: width * height)
        let rgba = bitmap.convertedToRGBA8()
        rgba.pixels.withUnsafeBytes { bytes in
            for index in 0..<width * height {
                let alpha = Float(bytes[index * 4 + 3]) / 255
                // Premultiplied, so that what is transparent counts as black (libvips).
                let lab = CIELab(
                    red: Float(bytes[index * 4]) * alpha, green: Float(bytes[index * 4 + 1]) * alpha,
                    blue: Float(bytes[index * 4 + 2]) * alpha)
                lightness[index] = lab.l
                if skinA.contains(lab.a), skinB.contains(lab.b), lab.l >= skinLightness { score[index] += regionWeight }
                if (lab.a * lab.a + lab.b * lab.b).squareRoot() > saturatedChroma { score[index] += regionWeight }
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                func l(_ dx: Int, _ dy: Int) -> Float {
                    lightness[min(max(0, y + dy), height - 1) * width + min(max(0, x + dx), width - 1)]
                }
                let gx = (l(1, -1) + 2 * l(1, 0) + l(1, 1)) - (l(-1, -1) + 2 * l(-1, 0) + l(-1, 1))
                let gy = (l(-1, 1) + 2 * l(0, 1) + l(1, 1)) - (l(-1, -1) + 2 * l(0, -1) + l(1, -1))
                score[y * width + x] += abs(gx) + abs(gy)
            }
        }
        return score
    }

    /// `grid` (`side` × `side`) blurred by a Gaussian of `sigma` cells, edges repeated.
    static func blur(_ grid: [Float], side: Int, sigma: Float) -> [Float] {
        let radius = min(side, Int((3 * sigma).rounded(.up)))
        let weights = (-radius...radius).map { exp(-Float($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        func pass(_ input: [Float], horizontal: Bool) -> [Float] {
            var output = [Float](repeating: 0, count: input.count)
            for y in 0..<side {
                for x in 0..<side {
                    var sum: Float = 0
                    for offset in -radius...radius {
                        let sx = horizontal ? min(max(0, x + offset), side - 1) : x
                        let sy = horizontal ? y : min(max(0, y + offset), side - 1)
                        sum += input[sy * side + sx] * weights[offset + radius]
                    }
                    output[y * side + x] = sum / total
                }
            }
            return output
        }
        return pass(pass(grid, horizontal: true), horizontal: false)
    }
}
