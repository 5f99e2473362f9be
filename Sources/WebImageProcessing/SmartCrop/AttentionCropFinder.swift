import Foundation
import WebImageCore

/// Finds the crop window a person would look at, as libvips' `attention` smart crop
/// does: the picture is reduced to a 32 × 32 map, each axis by its own scale; a cell
/// scores the edges of its luminance (five times its absolute Laplacian), how near the
/// direction of its colour in CIE XYZ lies to that of skin, and its CIE a* (reds), the
/// last two only where the cell is not dark; the map is blurred by a Gaussian a tenth of
/// the window's diagonal wide, and the window is centred on the first highest cell.
struct AttentionCropFinder {
    /// The picture analysed.
    let bitmap: Bitmap

    /// The side of the map: the precision of the placement.
    static let mapSide = 32
    /// The direction of skin tones in CIE XYZ (after smartcrop.js, as libvips uses it).
    static let skinDirection = SIMD3<Float>(0.78, 0.57, 0.44)
    /// The luminance (0 to 100) at or below which a cell's colour does not count.
    static let darkLuminance: Float = 5
    /// How much an edge counts against colour.
    static let edgeWeight: Float = 5

    /// Where the window of `size` centred on the most interesting cell has its top-left
    /// corner; the caller moves it inside the picture.
    func origin(of size: PixelSize) throws(ImageError) -> (x: Int, y: Int) {
        let side = Self.mapSide
        let map = try bitmap.resized(to: PixelSize(width: side, height: side))
        let horizontalScale = Double(side) / Double(bitmap.width)
        let verticalScale = Double(side) / Double(bitmap.height)
        let diagonal = hypot(Double(size.width) * horizontalScale, Double(size.height) * verticalScale)
        let blurred = try Self.blur(Self.score(map), side: side, sigma: Float(max(1, diagonal / 10)))
        var peak = 0
        for index in blurred.indices where blurred[index] > blurred[peak] { peak = index }
        // The cell's top-left corner in the picture, truncated, less half the window
        // (libvips' arithmetic, to the pixel).
        let x = Int(Double(peak % side) / horizontalScale) - size.width / 2
        let y = Int(Double(peak / side) / verticalScale) - size.height / 2
        return (x, y)
    }

    /// The score of every pixel of `bitmap`, row by row: edges plus skin plus a*.
    static func score(_ bitmap: Bitmap) throws(ImageError) -> [Float] {
        let width = bitmap.width, height = bitmap.height
        let rgba = try bitmap.convertedToRGBA8()
        var luminance = [Float](repeating: 0, count: width * height)
        var score = [Float](repeating: 0, count: width * height)
        rgba.pixels.withUnsafeBytes { bytes in
            for index in 0..<width * height {
                let colour = CIEXYZ(red: bytes[index * 4], green: bytes[index * 4 + 1], blue: bytes[index * 4 + 2])
                luminance[index] = colour.luminance
                guard colour.luminance > darkLuminance else { continue }
                let direction = colour.components / (colour.components * colour.components).sum().squareRoot()
                let offset = direction - skinDirection
                score[index] = 100 - 100 * (offset * offset).sum().squareRoot() + colour.redGreenAxis
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                func neighbour(_ dx: Int, _ dy: Int) -> Float {
                    luminance[min(max(0, y + dy), height - 1) * width + min(max(0, x + dx), width - 1)]
                }
                let laplacian = 4 * neighbour(0, 0) - neighbour(-1, 0) - neighbour(1, 0) - neighbour(0, -1) - neighbour(0, 1)
                score[y * width + x] += abs(edgeWeight * laplacian)
            }
        }
        return score
    }

    /// `grid` (`side` × `side`) blurred by a Gaussian of `sigma` cells, edges repeated.
    /// The weights are libvips' integer mask: twenty times the Gaussian, rounded, over
    /// the offsets where the Gaussian is at least a fifth of its peak.
    static func blur(_ grid: [Float], side: Int, sigma: Float) -> [Float] {
        func gaussian(_ offset: Int) -> Float { exp(-Float(offset * offset) / (2 * sigma * sigma)) }
        var radius = 0
        while gaussian(radius + 1) >= 0.2 { radius += 1 }
        let weights = (-radius...radius).map { (20 * gaussian($0)).rounded() }
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
