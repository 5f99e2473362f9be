import Benchmark
import BenchmarkSupport
import Foundation
import WebImage

/// The HEIF coder against the raw libheif calls on the same bytes, paired per iteration
/// (see `pairedBenchmark`).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        warmupIterations: 2,
        maxDuration: .seconds(8),
        maxIterations: 40
    )

    for (name, path) in [
        ("HEIC decode 1280×854", "libheif-data/examples/example.heic"),
        ("HEIC decode 2592×1944 (Xiaomi)", "pillow-heif-images/heif_special/xiaomi.heic"),
    ] {
        let heic = corpusData(path)
        pairedBenchmark("\(name) · HEIFCoder vs raw libheif") { repetitions in
            for _ in 0..<repetitions { blackHole(RawHEIF.decode(heic)) }
        } ours: { repetitions in
            for _ in 0..<repetitions { blackHole(try HEIFCoder().decode(heic, options: ImageDecodeOptions())) }
        }
    }
}
