import ArgumentParser
import WebImage

/// `webimage cache clean`: SDWebImage's clean-up — expired entries first, then the oldest
/// until the folder is under half the size limit.
struct CacheCleanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Remove expired entries, then the oldest until the cache is under half of --max-size.",
        discussion: "Exits 1, saying why, when entries that should go cannot be removed."
    )

    @OptionGroup var location: CacheLocationOptions

    @Option(help: ArgumentHelp("Entries not used for this many seconds expire (default: one week).", valueName: "seconds"))
    var maxAge: Double?

    @Option(help: ArgumentHelp("The size limit in bytes; 0 means no limit.", valueName: "n"))
    var maxSize = 0

    @Flag(help: "Print a JSON object.")
    var json = false

    func validate() throws {
        if maxSize < 0 { throw ValidationError("--max-size cannot be negative") }
    }

    func run() async throws {
        var configuration = ImageCacheConfiguration()
        if let maxAge { configuration.maxDiskAge = maxAge }
        configuration.maxDiskSize = maxSize
        // Measured before the limited cache opens: opening it may already trim.
        let unlimited = location.makeCache()
        let before = await unlimited.diskUsage()
        await unlimited.waitForDiskMaintenance()
        let cache = location.makeCache(configuration: configuration)
        let check = CacheRemovalCheck(watching: cache)
        await cache.deleteOldFiles()
        await cache.waitForDiskMaintenance()
        print(await CacheReport(cache: cache, before: before).line(json: json))
        try check.exitIfAnyFailed()
    }
}
