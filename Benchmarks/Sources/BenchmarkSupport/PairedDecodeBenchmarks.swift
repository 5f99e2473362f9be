import Benchmark
import Foundation

/// Registers one ``pairedBenchmark(_:configuration:baseline:ours:)`` per corpus file:
/// `raw` (the C library called directly) against `ours` (the coder) on the same bytes, each
/// named "`subject.name` · `comparison`" (for example "AVIF decode 1280×720 · AVIFCoder vs
/// raw libavif"). Sets the decoder suites' shared default configuration first.
public func pairedDecodeBenchmarks<Raw, Decoded>(
    _ subjects: [(name: String, corpusPath: String)],
    comparison: String,
    raw: @escaping @Sendable (Data) -> Raw,
    ours: @escaping @Sendable (Data) throws -> Decoded
) {
    Benchmark.defaultConfiguration = .init(
        warmupIterations: 2,
        maxDuration: .seconds(8),
        maxIterations: 40
    )
    for subject in subjects {
        let bytes = corpusData(subject.corpusPath)
        pairedBenchmark("\(subject.name) · \(comparison)") { repetitions in
            for _ in 0..<repetitions { blackHole(raw(bytes)) }
        } ours: { repetitions in
            for _ in 0..<repetitions { blackHole(try ours(bytes)) }
        }
    }
}
