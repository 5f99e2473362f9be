import Benchmark
import BenchmarkSupport
import Foundation
import WebImage

/// The HEIF coder against the raw libheif calls on the same bytes, paired per iteration
/// (see `pairedDecodeBenchmarks`).
let benchmarks: @Sendable () -> Void = {
    pairedDecodeBenchmarks(
        [
            ("HEIC decode 1280×854", "libheif-data/examples/example.heic"),
            ("HEIC decode 2592×1944 (Xiaomi)", "pillow-heif-images/heif_special/xiaomi.heic"),
        ],
        comparison: "HEIFCoder vs raw libheif",
        raw: RawHEIF.decode,
        ours: { try HEIFCoder().decode($0, options: ImageDecodeOptions()) }
    )
}
