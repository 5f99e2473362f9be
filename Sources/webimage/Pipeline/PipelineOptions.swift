import ArgumentParser
import Foundation
import WebImage

/// The options that build a command's loading pipeline: where the cache lives and its
/// limits, and how the downloader talks to servers.
struct PipelineOptions: ParsableArguments {
    @OptionGroup var location: CacheLocationOptions

    @Option(help: ArgumentHelp("Keep the disk cache under N bytes (0: unlimited).", valueName: "n"))
    var maxDiskSize: Int?

    @Option(help: ArgumentHelp("Seconds after which disk entries expire (default: one week).", valueName: "seconds"))
    var maxDiskAge: Double?

    @Option(
        help: ArgumentHelp(
            "Decoded bytes the memory cache keeps, such as 256M or 1G (0: unlimited; default: 15% of the memory the process may use, at most 768M).",
            valueName: "size"
        )
    )
    var memoryLimit: ByteSize?

    @Option(
        name: .customLong("header"),
        help: ArgumentHelp("A header sent with every request, as \"Name: value\" (repeatable).", valueName: "header")
    )
    var headers: [String] = []

    @Option(help: ArgumentHelp("HTTP Basic credentials for the images' own server.", valueName: "user:password"))
    var user: String?

    @Option(help: ArgumentHelp("Seconds a connection or a silent response may take (default: 15).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Seconds a download may take in all, however steadily data arrives (default: 60).", valueName: "seconds"))
    var deadline: Double?

    func validate() throws {
        for header in headers where PipelineOptions.parseHeader(header) == nil {
            throw ValidationError("a header must read \"Name: value\", not '\(header)'")
        }
        if let user, !user.contains(":") {
            throw ValidationError("--user takes USER:PASSWORD")
        }
        if let timeout, timeout <= 0 {
            throw ValidationError("--timeout must be more than 0 seconds")
        }
        if let deadline, deadline <= 0 {
            throw ValidationError("--deadline must be more than 0 seconds")
        }
        if let maxDiskSize, maxDiskSize < 0 {
            throw ValidationError("--max-disk-size cannot be negative")
        }
    }

    /// The cache's configuration with the disk and memory limits given.
    var cacheConfiguration: ImageCacheConfiguration {
        var configuration = ImageCacheConfiguration()
        if let maxDiskSize { configuration.maxDiskSize = maxDiskSize }
        if let maxDiskAge { configuration.maxDiskAge = maxDiskAge }
        if let memoryLimit { configuration.maxMemoryCost = memoryLimit.bytes }
        return configuration
    }

    /// The downloader's configuration with the headers, credentials, timeout and deadline given.
    var downloaderConfiguration: ImageDownloaderConfiguration {
        var configuration = ImageDownloaderConfiguration()
        for case let (name, value)? in headers.map(PipelineOptions.parseHeader) {
            configuration.httpHeaders[name] = value
        }
        if let user, let colon = user.firstIndex(of: ":") {
            configuration.username = String(user[..<colon])
            configuration.password = String(user[user.index(after: colon)...])
        }
        if let timeout { configuration.downloadTimeout = timeout }
        if let deadline { configuration.downloadDeadline = deadline }
        return configuration
    }

    /// A manager on the cache and a downloader these options describe.
    func makePipeline() -> LoadingPipeline {
        LoadingPipeline(cache: location.makeCache(configuration: cacheConfiguration), downloaderConfiguration: downloaderConfiguration)
    }

    private static func parseHeader(_ text: String) -> (name: String, value: String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        return (name, text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
}
