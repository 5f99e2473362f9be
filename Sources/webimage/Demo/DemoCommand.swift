import ArgumentParser
import Foundation
import WebImage

/// `webimage demo`: the whole pipeline on the built-in samples, served on 127.0.0.1.
///
/// It prefetches the first half of the images, drops the memory cache, then loads every
/// image three times — cold (the prefetched half from disk, the rest from the network),
/// after clearing memory (all from disk), and warm (all from memory) — and summarises each
/// run. The broken samples and the 404s must fail; anything else failing is an error.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Serve the built-in samples on 127.0.0.1 and load them through the whole pipeline, three times.",
        discussion: """
            Exits 0 when every image loaded except the deliberately broken and missing ones, \
            1 otherwise. Nothing leaves the machine: the server listens on loopback only.
            """
    )

    @Option(help: ArgumentHelp("How many images to serve (12 kinds in turn; every 30th URL is a 404).", valueName: "n"))
    var count = 120

    @Option(help: ArgumentHelp("The longest side of the largest stills, in pixels.", valueName: "px"))
    var largestSide = 1700

    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp("The folder for the cache (default: a fresh temporary folder, removed at the end).", valueName: "dir")
    )
    var cacheDirectory: String?

    func validate() throws {
        if count < 1 { throw ValidationError("--count must be at least 1") }
        if largestSide < 16 { throw ValidationError("--largest-side must be at least 16") }
    }

    func run() async throws {
        let server = try await DemoImageServer.start(count: count, largestSide: largestSide)
        let expectedFailures = Set((0..<count).filter { DemoImageServer.isMissing($0) || SampleImageSet.isBroken(at: $0) })
        let isTemporary = cacheDirectory == nil
        let directory =
            cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("webimage-demo-\(UUID().uuidString)", isDirectory: true)

        let timer = DecodeTimer()
        let coders = ImageCodersManager(coders: ImageCodersManager.builtInCoders.map { TimedImageCoder(coder: $0, timer: timer) })
        var downloaderConfiguration = ImageDownloaderConfiguration()
        downloaderConfiguration.coders = coders
        let pipeline = LoadingPipeline(
            cache: ImageCache(directory: directory, coders: coders), downloaderConfiguration: downloaderConfiguration, coders: coders
        )
        let missing = (0..<count).filter(DemoImageServer.isMissing).count
        print(
            "serving \(count) images on \(server.server.url(for: "/images/").absoluteString)"
                + " (\(expectedFailures.count - missing) broken on purpose, \(missing) missing)")
        print("cache: \(pipeline.cache.diskStorage.directory.path)" + (isTemporary ? " (temporary)" : ""))
        print("the server paints each image on its first request: the prefetch's and run 1's times include that")

        var unexpected = await prefetch(Array(server.urls.prefix((count + 1) / 2)), pipeline: pipeline, expectedFailures: expectedFailures)
        pipeline.cache.clearMemory()
        let runs = [
            "run 1 — cold: the prefetched half from disk, the rest from the network",
            "run 2 — memory cleared: everything from disk",
            "run 3 — warm: everything from memory",
        ]
        for (number, title) in runs.enumerated() {
            if number == 1 { pipeline.cache.clearMemory() }
            let report = await loadAll(server.urls, title: title, pipeline: pipeline, timer: timer, expectedFailures: expectedFailures)
            print(report.lines.joined(separator: "\n"))
            for line in report.unexpected {
                Terminal.writeError("unexpected: \(line)\n")
            }
            unexpected += report.unexpected.count
        }

        await pipeline.shutdown()
        try? await server.stop()
        if isTemporary {
            try? FileManager.default.removeItem(at: directory)
        }
        if unexpected > 0 {
            print("demo failed: \(unexpected) unexpected results")
            throw ExitCode(1)
        }
        print("demo passed: every image loaded, except the \(expectedFailures.count) broken or missing on purpose")
    }

    /// Prefetches `urls` through ``ImagePrefetcher``; returns how many skips were not
    /// expected (or how many expected failures did not happen).
    private func prefetch(_ urls: [URL], pipeline: LoadingPipeline, expectedFailures: Set<Int>) async -> Int {
        let prefetcher = ImagePrefetcher(manager: pipeline.manager)
        prefetcher.maxConcurrentPrefetchCount = pipeline.downloader.maxConcurrentDownloads
        let bar = ProgressBar("prefetch", total: urls.count)
        let clock = ContinuousClock()
        let start = clock.now
        let (finished, skipped) = await prefetcher.prefetch(urls, progress: { finished, _ in bar.update(completed: finished) })
        let elapsed = start.duration(to: clock.now)
        bar.finish()
        let expected = urls.indices.filter(expectedFailures.contains).count
        print("prefetch — the first \(urls.count) images, \(prefetcher.maxConcurrentPrefetchCount) at a time, at low priority")
        print("  finished \(finished), skipped \(skipped) (\(expected) expected) in \(Terminal.seconds(elapsed))")
        return abs(skipped - expected)
    }

    /// Loads every URL at once through the manager, as a screen of image cells would.
    private func loadAll(
        _ urls: [URL], title: String, pipeline: LoadingPipeline, timer: DecodeTimer, expectedFailures: Set<Int>
    ) async -> DemoRunReport {
        let bar = ProgressBar(String(title.prefix(5)), total: urls.count)
        let manager = pipeline.manager
        let decodesBefore = timer.totals
        let clock = ContinuousClock()
        let start = clock.now
        let records = await withTaskGroup(of: (Int, LoadRecord).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask { (index, await manager.record(ImageRequest(url: url)) { bar.addBytes($0) }) }
            }
            var records = [LoadRecord](repeating: LoadRecord(), count: urls.count)
            for await (index, record) in group {
                records[index] = record
                bar.advance()
            }
            return records
        }
        let elapsed = start.duration(to: clock.now)
        bar.finish()
        return DemoRunReport(
            title: title, urls: urls, records: records, expectedFailures: expectedFailures,
            wallTime: elapsed, decode: timer.totals.since(decodesBefore)
        )
    }
}
