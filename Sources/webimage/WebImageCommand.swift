import ArgumentParser

/// The `webimage` command-line tool.
@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, decode and cache images with SwiftWebImage.",
        subcommands: subcommands
    )

    /// Every command; `serve` (and its hidden `decode-worker`) only in a build with the
    /// `Server` trait (the default).
    private static var subcommands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [
            DemoCommand.self, FetchCommand.self, PrefetchCommand.self, CacheCommand.self, GalleryCommand.self,
            InfoCommand.self, ConvertCommand.self, SamplesCommand.self, PlayCommand.self,
        ]
        #if Server
        commands += [ServeCommand.self, DecodeWorkerCommand.self]
        #endif
        return commands
    }
}
