import Benchmark
import BenchmarkSupport
import CJPEG
import CPNG
import CWebP
import Foundation
import WebImage

/// Each coder benchmark runs next to the raw C-library call on the same bytes, in the
/// same process, so `scripts/benchmark.sh` can report our time as a ratio of the raw one.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 2,
        maxDuration: .seconds(4),
        maxIterations: 40
    )

    let photo = corpusData("large-images/Kleiber_by_Lukas_Baubkus.jpg")
    let photoSize = PixelSize(width: 6028, height: 3391)
    let eighth = PixelSize(width: (photoSize.width + 7) / 8, height: (photoSize.height + 7) / 8)

    Benchmark("JPEG decode 20 MP · raw TurboJPEG") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(RawCodecs.decodeJPEG(photo, size: photoSize)) }
    }
    Benchmark("JPEG decode 20 MP · JPEGCoder") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try JPEGCoder().decode(photo, options: ImageDecodeOptions())) }
    }
    Benchmark("JPEG thumbnail 1/8 · raw TurboJPEG") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(RawCodecs.decodeJPEG(photo, size: eighth)) }
    }
    Benchmark("JPEG thumbnail 1/8 · JPEGCoder") { benchmark in
        let options = ImageDecodeOptions(thumbnailPixelSize: eighth)
        for _ in benchmark.scaledIterations { blackHole(try JPEGCoder().decode(photo, options: options)) }
    }

    for (name, path) in [
        ("PNG decode Kodak 768×512 RGB", "image-png-benches/kodim23.png"),
        ("PNG decode 5120×2880 RGBA", "large-images/Patak_5120x2880.png"),
    ] {
        let png = corpusData(path)
        Benchmark("\(name) · raw libspng") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(RawCodecs.decodePNG(png)) }
        }
        Benchmark("\(name) · PNGCoder") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try PNGCoder().decode(png, options: ImageDecodeOptions())) }
        }
    }

    let webp = corpusData("libwebp-test-data/test.webp")
    let webpPhoto = corpusData("sdwebimage/TestImageStatic.webp")
    for (name, data) in [("WebP decode 128×128 lossy", webp), ("WebP decode 550×368 lossy", webpPhoto)] {
        Benchmark("\(name) · raw libwebp") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(RawCodecs.decodeWebP(data)) }
        }
        Benchmark("\(name) · WebPCoder") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try WebPCoder().decode(data, options: ImageDecodeOptions())) }
        }
    }
}
