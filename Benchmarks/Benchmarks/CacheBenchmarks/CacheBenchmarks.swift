import Benchmark
import BenchmarkSupport
import Foundation
import WebImage

/// The caches next to what they replace: a bare `Dictionary` for memory hits, a plain
/// file read plus decode for disk hits.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(3)
    )

    let keys = (0..<1000).map { "https://images.example.com/photos/\($0)/large.jpg" }
    let missingKeys = (0..<1000).map { "https://images.example.com/photos/\($0)/missing.jpg" }
    let image = Image(bitmap: Bitmap(width: 64, height: 64))

    var dictionary: [String: Image] = [:]
    for key in keys { dictionary[key] = image }
    let memory = MemoryCache<String, Image>(costLimit: 0, countLimit: 0)
    for key in keys { memory.setValue(image, forKey: key, cost: image.memoryCost) }

    Benchmark("Memory hit · Dictionary") { benchmark in
        for index in benchmark.scaledIterations { blackHole(dictionary[keys[index % 1000]]) }
    }
    Benchmark("Memory hit · MemoryCache") { benchmark in
        for index in benchmark.scaledIterations { blackHole(memory.value(forKey: keys[index % 1000])) }
    }
    // What applications call: ImageCache's non-generic API over its (specialized) LRU.
    let imageCache = ImageCache(namespace: "bench-memory", directory: FileManager.default.temporaryDirectory)
    let fillImageCache: @Sendable () async throws -> Void = {
        for key in keys { try await imageCache.store(image, forKey: key, scope: .memory) }
    }
    Benchmark("Memory hit · ImageCache.imageFromMemory", configuration: .init(setup: fillImageCache)) { benchmark in
        for index in benchmark.scaledIterations { blackHole(imageCache.imageFromMemory(forKey: keys[index % 1000])) }
    }
    Benchmark("Memory miss · ImageCache.imageFromMemory", configuration: .init(setup: fillImageCache)) { benchmark in
        for index in benchmark.scaledIterations { blackHole(imageCache.imageFromMemory(forKey: missingKeys[index % 1000])) }
    }
    Benchmark("Memory miss · Dictionary") { benchmark in
        for index in benchmark.scaledIterations { blackHole(dictionary[missingKeys[index % 1000]]) }
    }
    Benchmark("Memory miss · MemoryCache") { benchmark in
        for index in benchmark.scaledIterations { blackHole(memory.value(forKey: missingKeys[index % 1000])) }
    }
    // Inserting the 2,000 keys in a cycle into room for 1,000 makes every insert evict the
    // entry inserted 1,000 steps before; the dictionary does the same by hand.
    let cycle = keys + missingKeys
    Benchmark("Insert with eviction · Dictionary") { benchmark in
        var bounded = dictionary
        for index in benchmark.scaledIterations {
            bounded.removeValue(forKey: cycle[(index + 1000) % 2000])
            bounded[cycle[index % 2000]] = image
        }
        blackHole(bounded)
    }
    Benchmark("Insert with eviction · MemoryCache") { benchmark in
        let bounded = MemoryCache<String, Image>(countLimit: 1000)
        for key in keys { bounded.setValue(image, forKey: key, cost: image.memoryCost) }
        for index in benchmark.scaledIterations {
            bounded.setValue(image, forKey: cycle[(index + 1000) % 2000], cost: image.memoryCost)
        }
        blackHole(bounded)
    }

    let photo = corpusData("sdwebimage/TestICCProfile.jpg")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-\(UUID().uuidString)")
    // Memory caching off, so that every query reads and decodes the file.
    var diskOnly = ImageCacheConfig()
    diskOnly.shouldCacheImagesInMemory = false
    let cache = ImageCache(namespace: "bench", directory: folder, config: diskOnly)
    let rawFile = folder.appendingPathComponent("raw.jpg")
    let removeFolder: @Sendable () async throws -> Void = { try? FileManager.default.removeItem(at: folder) }

    Benchmark(
        "Disk hit 400×300 JPEG · raw read + decode",
        configuration: .init(scalingFactor: .one, setup: {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? photo.write(to: rawFile)
        }, teardown: removeFolder)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let data = try Data(contentsOf: rawFile)
            blackHole(try ImageCodersManager.shared.decode(data))
        }
    }
    Benchmark(
        "Disk hit 400×300 JPEG · ImageCache",
        configuration: .init(scalingFactor: .one, setup: {
            try? await cache.store(nil, data: photo, forKey: "photo", scope: .disk)
        }, teardown: removeFolder)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(cache.imageFromDisk(forKey: "photo")) }
    }

    let crowded = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-crowded-\(UUID().uuidString)")
    Benchmark(
        "Open a 100,000-entry disk cache and answer the first query",
        configuration: .init(scalingFactor: .one, maxIterations: 10, setup: {
            try? FileManager.default.createDirectory(at: crowded, withIntermediateDirectories: true)
            let bytes = Data(repeating: 7, count: 512)
            for index in 0..<100_000 {
                let name = DiskCache.fileName(forKey: "https://images.example.com/\(index).jpg")
                FileManager.default.createFile(atPath: crowded.appendingPathComponent(name).path, contents: bytes)
            }
        }, teardown: {
            try? FileManager.default.removeItem(at: crowded)
        })
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let disk = DiskCache(directory: crowded)
            blackHole(disk.data(forKey: "https://images.example.com/99999.jpg"))
            benchmark.stopMeasurement()
            disk.waitForMaintenance()
            benchmark.startMeasurement()
        }
    }
}
