import ArgumentParser
import Foundation
import WebImage

/// `webimage fetch`: loads URLs through one manager, as a screen of image cells would.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load images through the manager: memory, disk, or one download per URL.",
        discussion: """
            All URLs load at once through one manager, so a URL given twice is downloaded once \
            (unless --sequential). Prints one line per distinct URL, in input order; "callbacks" \
            counts the answers its loads received, "partials" the partial images (with \
            progressiveDownload). Images go to the disk cache, and to the memory cache only when \
            their URL is given more than once. Exits 0 when every URL gave an image, 1 otherwise.
            """
    )

    @Flag(help: "Print one JSON object per URL.")
    var json = false

    @OptionGroup var pipeline: PipelineOptions

    @Option(
        name: .customLong("options"),
        help: ArgumentHelp("Load options, comma-separated (such as retryFailed,cacheMemoryOnly).", valueName: "names")
    )
    var optionNames: String?

    @Option(help: ArgumentHelp("Decode to fit inside WIDTHxHEIGHT pixels.", valueName: "wxh"))
    var thumbnail: PixelSize?

    @Flag(help: "Load the URLs one after another instead of all at once.")
    var sequential = false

    @Option(help: ArgumentHelp("Write each image into this folder (created if missing).", valueName: "dir"))
    var save: String?

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp("A file of URLs, one per line ('-' for standard input; # starts a comment).", valueName: "file")
    )
    var listFile: String?

    @Argument(help: "Image URLs (http, https, file, data) or file paths.")
    var urls: [String] = []

    func validate() throws {
        if urls.isEmpty, listFile == nil {
            throw ValidationError("give URLs, or a file of them with --from")
        }
        if let optionNames, ImageOptions(names: optionNames) == nil {
            let valid = ImageOptions.named.map(\.name).joined(separator: ", ")
            throw ValidationError("unknown option in '\(optionNames)'; the options are: \(valid)")
        }
    }

    func run() async throws {
        AllocatorPolicy.keepFreedBlocks.apply(environment: ProcessInfo.processInfo.environment)
        let arguments = urls + (try listFile.map(URLList.read) ?? [])
        let options = optionNames.flatMap(ImageOptions.init(names:)) ?? []
        // Where each distinct URL was given, in input order: one pass, so that the report
        // looks its loads up instead of scanning the list once per URL.
        var positions: [String: [Int]] = [:]
        var distinct: [String] = []
        for (index, argument) in arguments.enumerated() {
            if positions[argument] == nil { distinct.append(argument) }
            positions[argument, default: []].append(index)
        }
        // The memory cache dies with the process: only a URL given more than once can be
        // answered from it, so only such URLs are stored there.
        let requests = arguments.map { argument in
            ImageRequest(
                url: URL(argument: argument),
                options: options,
                thumbnailPixelSize: thumbnail,
                storeCacheType: positions[argument, default: []].count > 1 ? .all : .disk
            )
        }
        let firstPositions = Set(distinct.lazy.compactMap { positions[$0]?.first })

        let loading = pipeline.makePipeline()
        let bar = ProgressBar("fetch", total: requests.count)
        let records = await load(requests, with: loading.manager, countingBytesOf: firstPositions, bar: bar)
        bar.finish()
        await loading.shutdown()

        var saver = try save.map { try ImageSaver(folder: $0) }
        var failures = 0
        for argument in distinct {
            let indices = positions[argument] ?? []
            var result = FetchResult(argument: argument, records: indices.map { records[$0] })
            if result.error == nil, saver != nil {
                result.savedPath = saver?.save(result, isThumbnail: thumbnail != nil, order: indices.first ?? 0)
                if result.savedPath == nil {
                    result.saveError = ImageError(.fileSystem, "cannot write the image into \(save ?? "")")
                }
            }
            if result.error != nil { failures += 1 }
            print(json ? result.jsonObject.description : result.text)
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// Loads every request, all at once or one after another; the records come back in
    /// request order. Only the requests at `byteCounting` (each URL's first) feed the bar's
    /// byte count, since duplicates share one download.
    private func load(
        _ requests: [ImageRequest],
        with manager: ImageManager,
        countingBytesOf byteCounting: Set<Int>,
        bar: ProgressBar
    ) async -> [LoadRecord] {
        // The report prints facts, not pixels: images are kept only to be saved.
        let keepsImages = save != nil
        let addBytes: @Sendable (Int64) -> Void = { bar.addBytes($0) }
        let addPartial: @Sendable () -> Void = { bar.addPartial() }
        let counter: @Sendable (Int) -> (@Sendable (Int64) -> Void)? = { index in
            byteCounting.contains(index) ? addBytes : nil
        }
        if sequential {
            var records: [LoadRecord] = []
            for (index, request) in requests.enumerated() {
                records.append(await manager.record(request, keepsImage: keepsImages, onBytes: counter(index), onPartial: addPartial))
                bar.advance()
            }
            return records
        }
        return await withTaskGroup(of: (Int, LoadRecord).self) { group in
            var pending = requests.enumerated().makeIterator()
            func startNext(in group: inout TaskGroup<(Int, LoadRecord)>) {
                guard let (index, request) = pending.next() else { return }
                group.addTask {
                    (index, await manager.record(request, keepsImage: keepsImages, onBytes: counter(index), onPartial: addPartial))
                }
            }
            for _ in 0..<Self.loadsInFlight { startNext(in: &group) }
            var records = [LoadRecord](repeating: LoadRecord(), count: requests.count)
            while let (index, record) = await group.next() {
                records[index] = record
                bar.advance()
                startNext(in: &group)
            }
            return records
        }
    }

    /// The loads a run keeps in flight at once: many more than the downloader's connections
    /// and the decoding threads can serve, so neither waits for work, while a list of
    /// 20,000 URLs holds 256 tasks (with their requests and records) rather than 20,000.
    static let loadsInFlight = 256
}
