import ArgumentParser

/// `webimage cache clear`: empties the disk cache.
struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every entry of the disk cache."
    )

    @OptionGroup var location: CacheLocationOptions

    @Flag(help: "Print a JSON object.")
    var json = false

    func run() async throws {
        let cache = location.makeCache()
        let before = await cache.diskUsage()
        await cache.clearDisk()
        await cache.waitForDiskMaintenance()
        print(await CacheReport(cache: cache, before: before).line(json: json))
    }
}
