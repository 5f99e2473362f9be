import Benchmark
import BenchmarkSupport
import Foundation
import WebImage

/// The TIFF coder against the raw libtiff calls on the same bytes, paired per iteration
/// (see `pairedDecodeBenchmarks`).
let benchmarks: @Sendable () -> Void = {
    pairedDecodeBenchmarks(
        [
            ("TIFF decode LZW 7795×3122 grey", "libtiff-test-images/lzw-single-strip.tiff"),
            ("TIFF decode CMYK 1000×1000", "sharp-tiff/fogra-0-100-100-0.tif"),
            ("TIFF decode Deflate 278×374 RGBA", "pillow-formats/tiff_adobe_deflate.tif"),
        ],
        comparison: "TIFFCoder vs raw libtiff",
        raw: RawTIFF.decode,
        ours: { try TIFFCoder().decode($0, options: ImageDecodeOptions()) }
    )
}
