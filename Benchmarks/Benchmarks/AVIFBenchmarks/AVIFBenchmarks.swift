import Benchmark
import BenchmarkSupport
import Foundation
import WebImage

/// The AVIF coder against the raw libavif calls on the same bytes, paired per iteration
/// (see `pairedDecodeBenchmarks`).
let benchmarks: @Sendable () -> Void = {
    pairedDecodeBenchmarks(
        [
            ("AVIF decode 1280×720 8-bit 4:2:0", "av1-avif-testfiles/Microsoft/kids_720p.avif"),
            ("AVIF decode 1204×800 8-bit 4:2:0", "link-u-avif-samples/fox.profile0.8bpc.yuv420.avif"),
        ],
        comparison: "AVIFCoder vs raw libavif",
        raw: RawAVIF.decode,
        ours: { try AVIFCoder().decode($0, options: ImageDecodeOptions()) }
    )
}
