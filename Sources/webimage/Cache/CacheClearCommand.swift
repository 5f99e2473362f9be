import ArgumentParser

/// `webimage cache clear`: empties the disk cache.
struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every entry of the disk cache.",
        discussion: "Exits 1, saying why, when the entries cannot be removed."
    )

    @OptionGroup var location: CacheLocationOptions

    @Flag(help: "Print a JSON object.")
    var json = false

    func run() async throws {
        let cache = location.makeCache()
        let check = CacheRemovalCheck(watching: cache)
        let before = await cache.diskUsage()
        await cache.clearDisk()
        await cache.waitForDiskMaintenance()
        print(await CacheReport(cache: cache, before: before).line(json: json))
        try check.exitIfAnyFailed()
    }
}
