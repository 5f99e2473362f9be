import Foundation
import WebImage

/// An ``ImageManager`` on a cache and a downloader of its own, as one run of a command
/// uses them: files, `data:` URLs and HTTP(S) all load through it. A cache that cannot
/// write is named once on standard error.
struct LoadingPipeline: Sendable {
    /// The manager every load goes through.
    let manager: ImageManager
    /// The HTTP loader, owned by this pipeline.
    let downloader: ImageDownloader

    /// The manager's cache.
    let cache: ImageCache

    /// Creates a pipeline whose loaders decode with `coders` (the downloader's own
    /// coders come from `downloaderConfiguration`).
    init(cache: ImageCache, downloaderConfiguration: ImageDownloaderConfiguration, coders: ImageCodersManager = .shared) {
        downloader = ImageDownloader(configuration: downloaderConfiguration)
        let loaders = ImageLoadersManager(loaders: [
            FileImageLoader(coders: coders), DataURLImageLoader(coders: coders), downloader,
        ])
        self.cache = cache
        manager = ImageManager(cache: cache, loader: loaders)
        CacheWriteWarning.shared.watch(cache)
    }

    /// Closes the downloader's HTTP client and waits until the cache's background disk
    /// work (trims, deletions) is done, so the process can exit.
    func shutdown() async {
        try? await downloader.shutdown()
        await cache.waitForDiskMaintenance()
    }
}
