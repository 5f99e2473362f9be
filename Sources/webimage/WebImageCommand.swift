import ArgumentParser

/// The `webimage` command-line tool.
@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, decode and cache images with SwiftWebImage.",
        subcommands: [
            DemoCommand.self, FetchCommand.self, PrefetchCommand.self, CacheCommand.self, GalleryCommand.self,
            InfoCommand.self, ConvertCommand.self, SamplesCommand.self, PlayCommand.self, ServeCommand.self,
        ]
    )
}
