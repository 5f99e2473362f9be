import Benchmark
import BenchmarkSupport
import Foundation
import WebImage

/// The JPEG XL coder against the raw libjxl calls on the same bytes, paired per iteration
/// (see `pairedDecodeBenchmarks`).
let benchmarks: @Sendable () -> Void = {
    pairedDecodeBenchmarks(
        [
            ("JPEG XL decode 1024×631 VarDCT", "jxl-conformance/testcases/bicycles/input.jxl"),
            ("JPEG XL decode 438×589 modular", "jxl-rs-resources/green_queen_modular_e3.jxl"),
        ],
        comparison: "JXLCoder vs raw libjxl",
        raw: RawJXL.decode,
        ours: { try JXLCoder().decode($0, options: ImageDecodeOptions()) }
    )
}
