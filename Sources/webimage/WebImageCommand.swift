import ArgumentParser

/// The `webimage` command-line tool.
@main
struct WebImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, decode and cache images with SwiftWebImage.",
        subcommands: [InfoCommand.self, ConvertCommand.self, SamplesCommand.self, GalleryCommand.self]
    )
}
