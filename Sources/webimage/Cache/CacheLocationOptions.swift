import ArgumentParser
import Foundation
import WebImage

/// `--cache-dir`: which cache folder a command works on.
struct CacheLocationOptions: ParsableArguments {
    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "The folder holding the cache (default: $XDG_CACHE_HOME/SwiftWebImage or ~/.cache/SwiftWebImage).",
            valueName: "dir"
        )
    )
    var cacheDirectory: String?

    /// The folder holding the cache's namespace folder.
    var directory: URL {
        cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? ImageCacheConfiguration.defaultDiskCacheDirectory
    }

    /// The default namespace's cache in ``directory``.
    func makeCache(configuration: ImageCacheConfiguration = ImageCacheConfiguration(), coders: ImageCodersManager = .shared) -> ImageCache {
        ImageCache(directory: directory, configuration: configuration, coders: coders)
    }
}
