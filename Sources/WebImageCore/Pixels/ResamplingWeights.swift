/// For each destination pixel along one axis: which source pixels contribute and how much.
///
/// Shrinking uses the exact area each source pixel covers; enlarging uses linear
/// interpolation between the two nearest source pixels. Weights of a span add up to 1.
/// The tables are flat arrays so the resampler's inner loops read them through pointers.
struct ResamplingWeights {
    /// The first source pixel of each destination pixel's span.
    private(set) var firstSource: [Int] = []
    /// Where each span's weights start in ``weights``; one extra entry marks the end.
    private(set) var weightStart: [Int] = [0]
    /// All spans' weights, back to back.
    private(set) var weights: [Float] = []

    /// The number of destination pixels.
    var count: Int { firstSource.count }

    init(source: Int, destination: Int) {
        firstSource.reserveCapacity(destination)
        weightStart.reserveCapacity(destination + 1)
        let ratio = Double(source) / Double(destination)
        for index in 0..<destination {
            if ratio >= 1 {
                let low = Double(index) * ratio
                let high = min(Double(source), low + ratio)
                let first = Int(low)
                let last = min(source - 1, Int((high - 1e-9).rounded(.down)))
                for pixel in first...max(first, last) {
                    let covered = min(high, Double(pixel + 1)) - max(low, Double(pixel))
                    weights.append(Float(covered / ratio))
                }
                firstSource.append(first)
            } else {
                let centre = (Double(index) + 0.5) * ratio - 0.5
                let clamped = min(max(centre, 0), Double(source - 1))
                let first = Int(clamped.rounded(.down))
                let fraction = Float(clamped - Double(first))
                if first + 1 < source, fraction > 0 {
                    weights.append(1 - fraction)
                    weights.append(fraction)
                } else {
                    weights.append(1)
                }
                firstSource.append(first)
            }
            weightStart.append(weights.count)
        }
    }
}
