import ArgumentParser

/// `webimage cache info`: where the disk cache is and how much it holds.
struct CacheInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print the cache folder, its entry count and total bytes."
    )

    @OptionGroup var location: CacheLocationOptions

    @Flag(help: "Print a JSON object.")
    var json = false

    func run() async throws {
        let cache = location.makeCache()
        print(await CacheReport(cache: cache).line(json: json))
        await cache.waitForDiskMaintenance()
    }
}
