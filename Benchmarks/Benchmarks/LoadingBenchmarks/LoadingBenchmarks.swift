import AsyncHTTPClient
import Benchmark
import BenchmarkSupport
import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import WebImage

/// The whole network path on loopback: 1,000 distinct 50 KB JPEGs, six at a time,
/// fetched by raw AsyncHTTPClient GETs (the baseline) and by our downloader and manager.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(30),
        maxIterations: 15
    )

    let fixture = LoopbackFixture()
    let concurrency = 6
    // Every loopback benchmark runs in a process of its own, so each starts the server.
    let loopback = Benchmark.Configuration(setup: { try await fixture.start() })
    // The bytes-only runs are short, so they take more samples against the noise.
    let loopbackBytesOnly = Benchmark.Configuration(maxIterations: 40, setup: { try await fixture.start() })

    pairedBenchmark("Loopback 1,000 × 50 KB, bytes only · ImageDownloader.data(from:) vs raw AsyncHTTPClient", configuration: loopbackBytesOnly) { _ in
        try await RawLoader.fetchAll(fixture.urls, concurrency: concurrency, decode: false)
    } ours: { _ in
        try await fixture.downloadAll { url in _ = try await fixture.downloader.data(from: url) }
    }
    pairedBenchmark("Loopback 1,000 × 50 KB with decode · ImageDownloader vs raw AsyncHTTPClient + decode", configuration: loopback) { _ in
        try await RawLoader.fetchAll(fixture.urls, concurrency: concurrency, decode: true)
    } ours: { _ in
        try await fixture.downloadAll { url in _ = try await fixture.downloader.image(from: url) }
    }
    // A new manager on an empty cache folder each time (cheap next to 1,000 loads); the
    // folders are removed after the last iteration, outside the measurement.
    let managerFolders = NIOLockedValueBox<[URL]>([])
    var managerConfiguration = loopback
    managerConfiguration.teardown = {
        for folder in managerFolders.withLockedValue({ $0 }) {
            try? FileManager.default.removeItem(at: folder)
        }
    }
    pairedBenchmark("Loopback 1,000 × 50 KB with decode · ImageManager (memory + disk cache) vs raw AsyncHTTPClient + decode", configuration: managerConfiguration) { _ in
        try await RawLoader.fetchAll(fixture.urls, concurrency: concurrency, decode: true)
    } ours: { _ in
        let folder = uniqueTemporaryFolder()
        managerFolders.withLockedValue { $0.append(folder) }
        let manager = fixture.manager(cachingIn: folder)
        try await fixture.downloadAll { url in blackHole(try await manager.image(for: ImageRequest(url: url))) }
    }

    let image = Image(bitmap: Bitmap(width: 64, height: 64))
    let hitCache = ImageCache(namespace: "bench", directory: uniqueTemporaryFolder())
    let hitManager = ImageManager(cache: hitCache, loader: fixture.downloader)
    let hitURL = URL(string: "https://images.example.com/hit.png")!
    let storeHit = Benchmark.Configuration(
        scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 1_000_000,
        setup: {
            try await hitCache.store(image, forKey: hitURL.absoluteString, scope: .memory)
        })
    let rawHits: @Sendable (Int) -> Void = { repetitions in
        for _ in 0..<repetitions { blackHole(hitCache.imageFromMemory(forKey: hitURL.absoluteString)) }
    }
    pairedBenchmark("Memory-hit load · ImageManager.loadImage (synchronous hit) vs raw ImageCache.imageFromMemory", configuration: storeHit, baseline: rawHits) { repetitions in
        for _ in 0..<repetitions {
            hitManager.loadImage(with: hitURL) { blackHole($0) }
        }
    }
    pairedBenchmark("Memory-hit load · ImageManager.image(from:) (async) vs raw ImageCache.imageFromMemory", configuration: storeHit, baseline: rawHits) { repetitions in
        for _ in 0..<repetitions { blackHole(try await hitManager.image(from: hitURL)) }
    }
    // The same hits through a built request: the path every request with a setting takes.
    let hitRequest = ImageRequest(url: hitURL)
    pairedBenchmark("Memory-hit load · ImageManager.loadImage(with: ImageRequest) (synchronous hit) vs raw ImageCache.imageFromMemory", configuration: storeHit, baseline: rawHits)
    { repetitions in
        for _ in 0..<repetitions {
            hitManager.loadImage(with: hitRequest) { blackHole($0) }
        }
    }
    pairedBenchmark("Memory-hit load · ImageManager.image(for: ImageRequest) (async) vs raw ImageCache.imageFromMemory", configuration: storeHit, baseline: rawHits) {
        repetitions in
        for _ in 0..<repetitions { blackHole(try await hitManager.image(for: hitRequest)) }
    }
}
