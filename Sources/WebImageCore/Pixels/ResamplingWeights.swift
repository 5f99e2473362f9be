/// For each destination pixel along one axis: which source pixels contribute and how much,
/// under a Lanczos-3 filter.
///
/// The filter is widened by the shrink factor when shrinking, so every source pixel
/// contributes and fine detail blends instead of shimmering; when enlarging it
/// interpolates sharply. Taps that fall outside the source use the edge pixel. Weights of
/// a span add up to 1. The tables are flat arrays so the resampler's inner loops read
/// them through pointers.
package struct ResamplingWeights: Sendable {
    /// The first source pixel of each destination pixel's span.
    package private(set) var firstSource: [Int] = []
    /// Where each span's weights start in ``weights``; one extra entry marks the end.
    package private(set) var weightStart: [Int] = [0]
    /// All spans' weights, back to back.
    package private(set) var weights: [Float] = []

    /// The number of destination pixels.
    package var count: Int { firstSource.count }

    /// The most source pixels any one destination pixel's span covers.
    package var widestSpan: Int {
        var widest = 1
        for index in 0..<count { widest = max(widest, weightStart[index + 1] - weightStart[index]) }
        return widest
    }

    /// A bound on ``widestSpan`` for weights from `source` to `destination` pixels, without
    /// making them: a span runs from the ceiling of its centre less the support to the floor
    /// of the centre plus it, so it covers at most twice the support and one pixel.
    package static func widestSpanBound(source: Int, destination: Int) -> Int {
        let support = lobes * max(Double(source) / Double(max(destination, 1)), 1)
        return min(max(source, 1), Int((2 * support).rounded(.down)) + 1)
    }

    /// The lobes of the Lanczos window on each side of the centre.
    private static let lobes = 3.0

    /// Weights that resample `source` pixels to `destination` pixels.
    package init(source: Int, destination: Int) {
        firstSource.reserveCapacity(destination)
        weightStart.reserveCapacity(destination + 1)
        let ratio = Double(source) / Double(destination)
        let stretch = max(ratio, 1)
        let support = Self.lobes * stretch
        var span: [Double] = []
        for index in 0..<destination {
            let centre = (Double(index) + 0.5) * ratio - 0.5
            let low = Int((centre - support).rounded(.up))
            let high = Int((centre + support).rounded(.down))
            let first = min(max(low, 0), source - 1)
            let last = max(min(high, source - 1), first)
            span = [Double](repeating: 0, count: last - first + 1)
            for tap in low...max(low, high) {
                let weight = Self.lanczos((Double(tap) - centre) / stretch)
                span[min(max(tap, 0), source - 1) - first] += weight
            }
            let total = span.reduce(0, +)
            if total != 0 {
                weights.append(contentsOf: span.map { Float($0 / total) })
            } else {
                weights.append(contentsOf: span.indices.map { $0 == 0 ? 1 : 0 })
            }
            firstSource.append(first)
            weightStart.append(weights.count)
        }
    }

    /// The Lanczos-3 kernel: sinc(x)·sinc(x/3) inside ±3, zero outside.
    private static func lanczos(_ x: Double) -> Double {
        if x == 0 { return 1 }
        guard abs(x) < lobes else { return 0 }
        let angle = Double.pi * x
        return lobes * sin(angle) * sin(angle / lobes) / (angle * angle)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
