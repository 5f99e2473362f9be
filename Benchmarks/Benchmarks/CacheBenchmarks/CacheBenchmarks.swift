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

    let dictionary = Dictionary(uniqueKeysWithValues: keys.map { ($0, image) })
    let memory = MemoryCache<String, Image>(costLimit: 0, countLimit: 0)
    for key in keys { memory.setValue(image, forKey: key, cost: image.memoryCost) }

    let imageCache = ImageCache(namespace: "bench-memory", directory: FileManager.default.temporaryDirectory)
    let fillImageCache = Benchmark.Configuration(setup: {
        for key in keys { try await imageCache.store(image, forKey: key, scope: .memory) }
    })
    let dictionaryHits: @Sendable (Int) -> Void = { repetitions in
        for index in 0..<repetitions { blackHole(dictionary[keys[index % 1000]]) }
    }
    let dictionaryMisses: @Sendable (Int) -> Void = { repetitions in
        for index in 0..<repetitions { blackHole(dictionary[missingKeys[index % 1000]]) }
    }
    pairedBenchmark("Memory hit · MemoryCache vs Dictionary", baseline: dictionaryHits) { repetitions in
        for index in 0..<repetitions { blackHole(memory.value(forKey: keys[index % 1000])) }
    }
    // What applications call: ImageCache's non-generic API over its (specialized) LRU.
    pairedBenchmark("Memory hit · ImageCache.imageFromMemory vs Dictionary", configuration: fillImageCache, baseline: dictionaryHits) { repetitions in
        for index in 0..<repetitions { blackHole(imageCache.imageFromMemory(forKey: keys[index % 1000])) }
    }
    pairedBenchmark("Memory miss · MemoryCache vs Dictionary", baseline: dictionaryMisses) { repetitions in
        for index in 0..<repetitions { blackHole(memory.value(forKey: missingKeys[index % 1000])) }
    }
    pairedBenchmark("Memory miss · ImageCache.imageFromMemory vs Dictionary", configuration: fillImageCache, baseline: dictionaryMisses) { repetitions in
        for index in 0..<repetitions { blackHole(imageCache.imageFromMemory(forKey: missingKeys[index % 1000])) }
    }
    // Inserting the 2,000 keys in a cycle into room for 1,000 makes every insert evict the
    // entry inserted 1,000 steps before; the dictionary does the same by hand. Each side
    // starts from 1,000 entries: the dictionary copied, the cache filled afresh.
    let cycle = keys + missingKeys
    pairedBenchmark("Insert with eviction · MemoryCache vs Dictionary") { repetitions in
        var bounded = dictionary
        for index in 0..<repetitions {
            bounded.removeValue(forKey: cycle[(index + 1000) % 2000])
            bounded[cycle[index % 2000]] = image
        }
        blackHole(bounded)
    } ours: { repetitions in
        let bounded = MemoryCache<String, Image>(countLimit: 1000)
        for key in keys { bounded.setValue(image, forKey: key, cost: image.memoryCost) }
        for index in 0..<repetitions {
            bounded.setValue(image, forKey: cycle[(index + 1000) % 2000], cost: image.memoryCost)
        }
        blackHole(bounded)
    }

    let photo = corpusData("sdwebimage/TestICCProfile.jpg")
    let folder = uniqueTemporaryFolder()
    // Memory caching off, so that every query reads and decodes the file.
    var diskOnly = ImageCacheConfiguration()
    diskOnly.shouldCacheImagesInMemory = false
    let cache = ImageCache(namespace: "bench", directory: folder, configuration: diskOnly)
    let rawFile = folder.appendingPathComponent("raw.jpg")
    pairedBenchmark(
        "Disk hit 400×300 JPEG · ImageCache vs raw read + decode",
        configuration: .init(
            scalingFactor: .one,
            setup: {
                try await cache.store(nil, data: photo, forKey: "photo", scope: .disk)
                try photo.write(to: rawFile)
            },
            teardown: {
                try? FileManager.default.removeItem(at: folder)
            })
    ) { repetitions in
        for _ in 0..<repetitions {
            let data = try Data(contentsOf: rawFile)
            blackHole(try ImageCodersManager.shared.decode(data))
        }
    } ours: { repetitions in
        for _ in 0..<repetitions { blackHole(cache.imageFromDisk(forKey: "photo")) }
    }

    let crowded = uniqueTemporaryFolder(named: "webimage-bench-crowded")
    Benchmark(
        "Open a 100,000-entry disk cache and answer the first query",
        configuration: .init(
            scalingFactor: .one, maxIterations: 10,
            setup: {
                try? FileManager.default.createDirectory(at: crowded, withIntermediateDirectories: true)
                let bytes = Data(repeating: 7, count: 512)
                for index in 0..<100_000 {
                    let name = DiskCache.fileName(forKey: "https://images.example.com/\(index).jpg")
                    FileManager.default.createFile(atPath: crowded.appendingPathComponent(name).path, contents: bytes)
                }
            },
            teardown: {
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
