import Benchmark
import BenchmarkSupport
import Foundation
import WebImage

/// The TIFF coder against the raw libtiff calls on the same bytes, paired per iteration
/// (see `pairedBenchmark`).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        warmupIterations: 2,
        maxDuration: .seconds(8),
        maxIterations: 40
    )

    for (name, path) in [
        ("TIFF decode LZW 7795×3122 grey", "libtiff-test-images/lzw-single-strip.tiff"),
        ("TIFF decode CMYK 1000×1000", "sharp-tiff/fogra-0-100-100-0.tif"),
        ("TIFF decode Deflate 278×374 RGBA", "pillow-formats/tiff_adobe_deflate.tif"),
    ] {
        let tiff = corpusData(path)
        pairedBenchmark("\(name) · TIFFCoder vs raw libtiff") { repetitions in
            for _ in 0..<repetitions { blackHole(RawTIFF.decode(tiff)) }
        } ours: { repetitions in
            for _ in 0..<repetitions { blackHole(try TIFFCoder().decode(tiff, options: ImageDecodeOptions())) }
        }
    }
}
