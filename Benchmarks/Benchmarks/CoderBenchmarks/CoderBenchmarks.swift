import Benchmark
import BenchmarkSupport
import CJPEG
import CPNG
import CWebP
import Foundation
import WebImage

/// Each coder benchmark times our coder and the raw C-library call on the same bytes, in
/// turn, in every iteration (see `pairedBenchmark`).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        warmupIterations: 2,
        maxDuration: .seconds(8),
        maxIterations: 40
    )

    let photo = corpusData("large-images/Kleiber_by_Lukas_Baubkus.jpg")
    let photoSize = PixelSize(width: 6028, height: 3391)
    let eighth = PixelSize(width: (photoSize.width + 7) / 8, height: (photoSize.height + 7) / 8)

    pairedBenchmark("JPEG decode 20 MP · JPEGCoder vs raw TurboJPEG") { repetitions in
        for _ in 0..<repetitions { blackHole(RawCodecs.decodeJPEG(photo, size: photoSize)) }
    } ours: { repetitions in
        for _ in 0..<repetitions { blackHole(try JPEGCoder().decode(photo, options: ImageDecodeOptions())) }
    }
    pairedBenchmark("JPEG thumbnail 1/8 · JPEGCoder vs raw TurboJPEG") { repetitions in
        for _ in 0..<repetitions { blackHole(RawCodecs.decodeJPEG(photo, size: eighth)) }
    } ours: { repetitions in
        let options = ImageDecodeOptions(thumbnailPixelSize: eighth)
        for _ in 0..<repetitions { blackHole(try JPEGCoder().decode(photo, options: options)) }
    }

    for (name, path) in [
        ("PNG decode Kodak 768×512 RGB", "image-png-benches/kodim23.png"),
        ("PNG decode 5120×2880 RGBA", "large-images/Patak_5120x2880.png"),
    ] {
        let png = corpusData(path)
        pairedBenchmark("\(name) · PNGCoder vs raw libspng") { repetitions in
            for _ in 0..<repetitions { blackHole(RawCodecs.decodePNG(png)) }
        } ours: { repetitions in
            for _ in 0..<repetitions { blackHole(try PNGCoder().decode(png, options: ImageDecodeOptions())) }
        }
    }

    let webp = corpusData("libwebp-test-data/test.webp")
    let webpPhoto = corpusData("sdwebimage/TestImageStatic.webp")
    for (name, data) in [("WebP decode 128×128 lossy", webp), ("WebP decode 550×368 lossy", webpPhoto)] {
        pairedBenchmark("\(name) · WebPCoder vs raw libwebp") { repetitions in
            for _ in 0..<repetitions { blackHole(RawCodecs.decodeWebP(data)) }
        } ours: { repetitions in
            for _ in 0..<repetitions { blackHole(try WebPCoder().decode(data, options: ImageDecodeOptions())) }
        }
    }
}
