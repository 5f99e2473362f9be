import Benchmark
import BenchmarkSupport
import Foundation
import WebImage

/// The AVIF coder against the raw libavif calls on the same bytes, paired per iteration
/// (see `pairedBenchmark`).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        warmupIterations: 2,
        maxDuration: .seconds(8),
        maxIterations: 40
    )

    for (name, path) in [
        ("AVIF decode 1280×720 8-bit 4:2:0", "av1-avif-testfiles/Microsoft/kids_720p.avif"),
        ("AVIF decode 1204×800 8-bit 4:2:0", "link-u-avif-samples/fox.profile0.8bpc.yuv420.avif"),
    ] {
        let avif = corpusData(path)
        pairedBenchmark("\(name) · AVIFCoder vs raw libavif") { repetitions in
            for _ in 0..<repetitions { blackHole(RawAVIF.decode(avif)) }
        } ours: { repetitions in
            for _ in 0..<repetitions { blackHole(try AVIFCoder().decode(avif, options: ImageDecodeOptions())) }
        }
    }
}
