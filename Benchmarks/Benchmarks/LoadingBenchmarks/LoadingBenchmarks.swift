import AsyncHTTPClient
import Benchmark
import Foundation
import LoopbackHTTPServer
import NIOPosix
import WebImage

/// The whole network path on loopback: 1,000 distinct 50 KB JPEGs, six at a time,
/// fetched by raw AsyncHTTPClient GETs (the baseline) and by our downloader and manager.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(30),
        maxIterations: 8
    )

    let fixture = LoopbackFixture()
    let concurrency = 6
    // Benchmarks run in name order, so every loopback benchmark starts the (shared) server.
    let loopback = Benchmark.Configuration(setup: { try await fixture.start() })
    // The bytes-only runs are short, so they take more samples against the noise.
    let loopbackBytesOnly = Benchmark.Configuration(maxIterations: 25, setup: { try await fixture.start() })

    Benchmark("Loopback 1,000 × 50 KB, bytes only · raw AsyncHTTPClient", configuration: loopbackBytesOnly) { _ in
        try await RawLoader.fetchAll(fixture.urls, concurrency: concurrency, decode: false)
    }
    Benchmark("Loopback 1,000 × 50 KB, bytes only · ImageDownloader.data(from:)", configuration: loopbackBytesOnly) { _ in
        try await fixture.downloadAll { url in _ = try await fixture.downloader.data(from: url) }
    }
    Benchmark("Loopback 1,000 × 50 KB with decode · raw AsyncHTTPClient + decode", configuration: loopback) { _ in
        try await RawLoader.fetchAll(fixture.urls, concurrency: concurrency, decode: true)
    }
    Benchmark("Loopback 1,000 × 50 KB with decode · ImageDownloader", configuration: loopback) { _ in
        try await fixture.downloadAll { url in _ = try await fixture.downloader.image(from: url) }
    }
    Benchmark("Loopback 1,000 × 50 KB with decode · ImageManager (memory + disk cache)", configuration: loopback) { benchmark in
        // A new manager on an empty cache folder each time (cheap next to 1,000 loads).
        let folder = LoopbackFixture.uniqueTemporaryFolder()
        let manager = fixture.manager(cachingIn: folder)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for url in fixture.urls {
                group.addTask { blackHole(try await manager.image(for: ImageRequest(url: url))) }
            }
            try await group.waitForAll()
        }
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(at: folder)
    }

    let image = Image(bitmap: Bitmap(width: 64, height: 64))
    let hitManager = fixture.manager(cachingIn: LoopbackFixture.uniqueTemporaryFolder())
    let hitURL = URL(string: "https://images.example.com/hit.png")!
    let storeHit: @Sendable () async throws -> Void = {
        try await hitManager.cache.store(image, forKey: hitURL.absoluteString, scope: .memory)
    }
    Benchmark(
        "Memory-hit load · raw ImageCache.imageFromMemory",
        configuration: .init(scalingFactor: .kilo, setup: storeHit)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(hitManager.cache.imageFromMemory(forKey: hitURL.absoluteString)) }
    }
    Benchmark(
        "Memory-hit load · ImageManager.loadImage (synchronous hit)",
        configuration: .init(scalingFactor: .kilo, setup: storeHit)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            hitManager.loadImage(with: hitURL) { blackHole($0) }
        }
    }
    Benchmark(
        "Memory-hit load · ImageManager.image(for:) (async)",
        configuration: .init(scalingFactor: .kilo, setup: storeHit)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await hitManager.image(from: hitURL)) }
    }
}
