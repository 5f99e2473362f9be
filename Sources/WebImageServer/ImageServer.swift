import Foundation
import Hummingbird
import Logging
import NIOCore
import WebImage

/// An image server over the library: it fetches each source once through an
/// `ImageManager` (cached on disk by the library's rules), transforms and encodes it by
/// a `TransformSpec` from the URL, and keeps each result in a disk cache of its own.
///
/// ```
/// GET /<signature>/<spec>/plain/<percent-encoded source URL>
/// GET /<signature>/<spec>/<base64url source URL>
/// GET /health
/// GET /metrics       (Prometheus text format)
/// ```
///
/// See ``ImageURLSigner`` for the signature and ``ImageServerConfiguration`` for the limits.
public struct ImageServer: Sendable {
    /// The server's configuration.
    public let configuration: ImageServerConfiguration
    /// The manager that fetches and caches sources.
    public let manager: ImageManager
    /// The downloader behind the manager.
    public let downloader: ImageDownloader
    /// The cache of sources, the manager's.
    public let sources: ImageCache
    /// The cache of results, by spec and source.
    public let results: ImageCache
    /// What the server counts, served at `/metrics`.
    public let metrics = ImageServerMetrics()

    /// A server as `configuration` describes; nothing listens until ``run(onRunning:)``.
    public init(configuration: ImageServerConfiguration) {
        self.configuration = configuration
        var sourceConfig = ImageCacheConfig()
        sourceConfig.maxMemoryCost = configuration.memoryLimit
        sources = ImageCache(namespace: "sources", directory: configuration.cacheDirectory, config: sourceConfig)
        var resultConfig = ImageCacheConfig()
        resultConfig.shouldCacheImagesInMemory = false
        results = ImageCache(namespace: "results", directory: configuration.cacheDirectory, config: resultConfig)
        var downloaderConfig = ImageDownloaderConfig()
        downloaderConfig.maximumResponseSize = configuration.maxSourceBytes
        downloaderConfig.downloadDeadline = configuration.sourceTimeout
        downloaderConfig.downloadTimeout = min(configuration.sourceTimeout, downloaderConfig.downloadTimeout)
        downloader = ImageDownloader(config: downloaderConfig)
        // Sources come from the network only: no file: or data: loader.
        manager = ImageManager(cache: sources, loader: ImageLoadersManager(loaders: [downloader]))
    }

    /// Listens and answers until the process receives SIGTERM or SIGINT, or the task is
    /// cancelled; then it stops accepting, finishes the requests in flight, and closes the
    /// downloader and the caches.
    ///
    /// - Parameter onRunning: Called with the bound port once the server listens.
    public func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var logger = Logger(label: "webimage")
        logger.logLevel = configuration.logLevel
        let responder = ImageServerResponder(
            configuration: configuration, manager: manager, coders: sources.coders, results: results.diskStorage, metrics: metrics)
        let application = Application(
            responder: responder,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "webimage"
            ),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        do {
            try await application.runService()
        } catch {
            await close()
            throw error
        }
        await close()
    }

    private func close() async {
        try? await downloader.shutdown()
        await sources.waitForDiskMaintenance()
        await results.waitForDiskMaintenance()
    }
}
