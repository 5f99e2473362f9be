import ArgumentParser

/// `webimage cache`: looks after the disk cache.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show, clear or clean the disk cache.",
        subcommands: [CacheInfoCommand.self, CacheClearCommand.self, CacheCleanCommand.self]
    )
}
