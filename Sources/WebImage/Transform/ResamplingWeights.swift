/// For each destination pixel along one axis: which source pixels contribute and how much.
///
/// Shrinking uses the exact area each source pixel covers; enlarging uses linear
/// interpolation between the two nearest source pixels. Weights of a span add up to 1.
struct ResamplingWeights {
    /// The run of source pixels behind one destination pixel.
    struct Span {
        /// The first source pixel.
        var first: Int
        /// How many source pixels, from `first` on.
        var count: Int
        /// Where this span's weights start in ``ResamplingWeights/weights``.
        var weightStart: Int
    }

    /// One span per destination pixel.
    private(set) var spans: [Span] = []
    /// All spans' weights, back to back.
    private(set) var weights: [Float] = []

    init(source: Int, destination: Int) {
        spans.reserveCapacity(destination)
        let ratio = Double(source) / Double(destination)
        for index in 0..<destination {
            let start = weights.count
            if ratio >= 1 {
                let low = Double(index) * ratio
                let high = min(Double(source), low + ratio)
                let first = Int(low)
                let last = min(source - 1, Int((high - 1e-9).rounded(.down)))
                for pixel in first...max(first, last) {
                    let covered = min(high, Double(pixel + 1)) - max(low, Double(pixel))
                    weights.append(Float(covered / ratio))
                }
                spans.append(Span(first: first, count: weights.count - start, weightStart: start))
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
                spans.append(Span(first: first, count: weights.count - start, weightStart: start))
            }
        }
    }
}
