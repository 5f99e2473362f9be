import ArgumentParser
import Foundation
import WebImage

/// `webimage prefetch`: fills the cache ahead of need through ``ImagePrefetcher``.
struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Load URLs into the cache, a few at a time and at low priority.",
        discussion: """
            By default only the bytes go into the disk cache, checked by their header but not \
            decoded, so memory stays small however many images are prefetched; --into memory \
            decodes each image into the memory cache as well. Ends with 'finished N, skipped M'; \
            exits 0 when nothing was skipped, 1 otherwise.
            """
    )

    @OptionGroup var pipeline: PipelineOptions

    @Option(help: ArgumentHelp("How many URLs load at once.", valueName: "n"))
    var concurrency = 3

    @Option(help: ArgumentHelp("Where images go: disk (bytes only) or memory (decoded).", valueName: "disk|memory"))
    var into = PrefetchTarget.disk

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
        if concurrency < 1 {
            throw ValidationError("--concurrency must be at least 1")
        }
    }

    func run() async throws {
        AllocatorPolicy.keepFreedBlocks.apply(environment: ProcessInfo.processInfo.environment)
        let arguments = urls + (try listFile.map(URLList.read) ?? [])
        let parsed = arguments.compactMap(URL.init(argument:))
        let unusable = arguments.count - parsed.count
        for argument in arguments where URL(argument: argument) == nil {
            Terminal.writeError("skipping '\(argument)': not a URL or an existing file\n")
        }

        let loading = pipeline.makePipeline()
        let prefetcher = ImagePrefetcher(manager: loading.manager)
        prefetcher.maxConcurrentPrefetchCount = concurrency
        prefetcher.destination = into.destination
        let bar = ProgressBar("prefetch", total: parsed.count)
        let (finished, skipped) = await prefetcher.prefetch(parsed, progress: { finished, _ in bar.update(completed: finished) })
        bar.finish()
        await loading.shutdown()

        print("finished \(finished + unusable), skipped \(skipped + unusable)")
        if skipped + unusable > 0 { throw ExitCode(1) }
    }
}
