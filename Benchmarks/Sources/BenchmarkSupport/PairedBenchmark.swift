import Benchmark

/// The metrics a paired benchmark records in every iteration.
public enum PairedMetric {
    /// The baseline's time per repetition, in nanoseconds.
    public static let baseline = BenchmarkMetric.custom("baseline (ns)", useScalingFactor: false)
    /// Our time per repetition, in nanoseconds.
    public static let ours = BenchmarkMetric.custom("ours (ns)", useScalingFactor: false)
    /// Our time as a share of the baseline's in the same iteration, in per mille
    /// (1,000 is as fast; below is faster).
    public static let ratio = BenchmarkMetric.custom("ours ÷ baseline (‰)", useScalingFactor: false)
}

/// Registers a benchmark that, in every iteration, times `baseline` and then `ours` (or
/// the other way round: the order swaps each iteration) in this one process, and records
/// both times and their ratio (see ``PairedMetric``).
///
/// package-benchmark runs every benchmark in a process of its own, so two separate
/// benchmarks are measured at different moments; on a shared machine the load moves
/// between them. Timing both sides back to back and taking the ratio per iteration
/// compares them under the same conditions.
///
/// Each closure gets the number of repetitions to run (the configuration's scaling
/// factor); the times are reported per repetition.
@discardableResult
public func pairedBenchmark(
    _ name: String,
    configuration: Benchmark.Configuration = Benchmark.defaultConfiguration,
    baseline: @escaping @Sendable (_ repetitions: Int) async throws -> Void,
    ours: @escaping @Sendable (_ repetitions: Int) async throws -> Void
) -> Benchmark? {
    var configuration = configuration
    configuration.metrics = [PairedMetric.ratio, PairedMetric.baseline, PairedMetric.ours]
    return Benchmark(name, configuration: configuration) { benchmark in
        let repetitions = benchmark.scaledIterations.count
        let clock = ContinuousClock()
        let baselineTime: Duration
        let ourTime: Duration
        if benchmark.currentIteration.isMultiple(of: 2) {
            baselineTime = try await clock.measure { try await baseline(repetitions) }
            ourTime = try await clock.measure { try await ours(repetitions) }
        } else {
            ourTime = try await clock.measure { try await ours(repetitions) }
            baselineTime = try await clock.measure { try await baseline(repetitions) }
        }
        let baselineNanoseconds = nanoseconds(baselineTime) / Double(repetitions)
        let ourNanoseconds = nanoseconds(ourTime) / Double(repetitions)
        benchmark.measurement(PairedMetric.baseline, Int(baselineNanoseconds.rounded()))
        benchmark.measurement(PairedMetric.ours, Int(ourNanoseconds.rounded()))
        benchmark.measurement(PairedMetric.ratio, Int((1000 * ourNanoseconds / baselineNanoseconds).rounded()))
    }
}

private func nanoseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}
