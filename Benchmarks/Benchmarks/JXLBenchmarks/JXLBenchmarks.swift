import Benchmark
import BenchmarkSupport
import Foundation
import WebImage

/// The JPEG XL coder against the raw libjxl calls on the same bytes, paired per iteration
/// (see `pairedBenchmark`).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        warmupIterations: 2,
        maxDuration: .seconds(8),
        maxIterations: 40
    )

    for (name, path) in [
        ("JPEG XL decode 1024×631 VarDCT", "jxl-conformance/testcases/bicycles/input.jxl"),
        ("JPEG XL decode 438×589 modular", "jxl-rs-resources/green_queen_modular_e3.jxl"),
    ] {
        let jxl = corpusData(path)
        pairedBenchmark("\(name) · JXLCoder vs raw libjxl") { repetitions in
            for _ in 0..<repetitions { blackHole(RawJXL.decode(jxl)) }
        } ours: { repetitions in
            for _ in 0..<repetitions { blackHole(try JXLCoder().decode(jxl, options: ImageDecodeOptions())) }
        }
    }
}
