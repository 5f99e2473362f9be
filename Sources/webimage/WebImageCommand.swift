import ArgumentParser
import WebImage

/// The `webimage` command-line tool.
@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, decode and cache images with SwiftWebImage.",
        subcommands: [
            DemoCommand.self, FetchCommand.self, PrefetchCommand.self, CacheCommand.self, GalleryCommand.self,
            InfoCommand.self, ConvertCommand.self, SamplesCommand.self,
        ]
    )

    /// Registers the coders of the optional format targets with the shared manager, then
    /// runs the command the arguments name.
    static func main() async {
        for coder in ImageCodersManager.formatCoders {
            ImageCodersManager.shared.addCoder(coder)
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
