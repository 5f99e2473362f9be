import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Tracing
import WebImage

/// An image server over the library: it fetches each source once through an
/// `ImageManager` (cached on disk by the library's rules), transforms and encodes it by
/// a `TransformSpec` from the URL, and keeps each result in a disk cache of its own.
///
/// ```
/// GET /<signature>/<spec>/plain/<percent-encoded source URL>
/// GET /<signature>/<spec>/<base64url source URL>
/// GET /health
/// GET /metrics       (Prometheus text format, on the metrics listener only)
/// ```
///
/// See ``ImageURLSigner`` for the signature, ``ImageServerConfiguration`` for the limits
/// and <doc:Security> for the rules that keep it safe to face the internet.
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
    /// What the server counts, served at `/metrics` on the metrics listener.
    public let metrics = ImageServerMetrics()
    /// The tracer of the server's spans (see <doc:Tracing>); `nil` traces nothing, at no cost.
    public let tracer: (any Tracer)?
    /// What sources may be fetched, checked at every connection.
    let policy: SourceAddressPolicy
    /// The decode workers, those waiting started when the routes are built.
    let workers: DecodeWorkers

    /// A server as `configuration` describes, tracing each request with `tracer` when one
    /// is given; nothing listens until ``run(onRunning:onMetricsRunning:)``.
    public init(configuration: ImageServerConfiguration, tracer: (any Tracer)? = nil) {
        self.configuration = configuration
        self.tracer = tracer
        sources = ImageCache(namespace: "sources", directory: configuration.cacheDirectory, configuration: Self.sourceCacheConfiguration(configuration))
        var resultConfiguration = ImageCacheConfiguration()
        resultConfiguration.shouldCacheImagesInMemory = false
        resultConfiguration.maxDiskSize = configuration.maxResultCacheBytes
        results = ImageCache(namespace: "results", directory: configuration.cacheDirectory, configuration: resultConfiguration)
        let policy = SourceAddressPolicy(
            allowedHosts: configuration.allowedHosts,
            allowsPrivateAddresses: configuration.allowsPrivateSources,
            allowedAddresses: Set(configuration.allowedSourceAddresses.compactMap(IPAddress.init)),
            resolver: configuration.resolver,
            allowedPorts: configuration.allowedSourcePorts
        )
        self.policy = policy
        var downloaderConfiguration = ImageDownloaderConfiguration()
        downloaderConfiguration.maximumResponseSize = configuration.maxSourceBytes
        downloaderConfiguration.downloadDeadline = configuration.sourceDownloadDeadline
        downloaderConfiguration.downloadTimeout = min(configuration.sourceDownloadDeadline, downloaderConfiguration.downloadTimeout)
        if configuration.minSourceBytesPerSecond > 0 {
            downloaderConfiguration.minimumTransferRate = DownloadTransferRate(
                bytesPerSecond: configuration.minSourceBytesPerSecond, gracePeriod: ImageServerConfiguration.sourceRateGracePeriod
            )
        }
        // Every URL fetched, the first and each redirect's target, is checked where it
        // connects, and connected to at the address checked.
        downloaderConfiguration.addressGate = DownloadAddressGate { url throws(ImageError) in try await policy.address(for: url) }
        downloader = ImageDownloader(configuration: downloaderConfiguration)
        // Sources come from the network only: no file: or data: loader.
        manager = ImageManager(cache: sources, loader: ImageLoadersManager(loaders: [downloader]))
        workers = DecodeWorkers(configuration, metrics: metrics)
    }

    /// Listens and answers until the process receives SIGTERM or SIGINT, or the task is
    /// cancelled; then it stops accepting, finishes the requests in flight, and closes the
    /// downloader and the caches.
    ///
    /// A configuration that ``ImageServerConfiguration/validate()`` refuses throws its
    /// ``ImageServerConfigurationError`` before anything listens.
    ///
    /// - Parameters:
    ///   - onRunning: Called with the bound port once the server listens.
    ///   - onMetricsRunning: Called with the metrics listener's port once it listens (when
    ///     ``ImageServerConfiguration/metricsPort`` is set).
    public func run(
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        do throws(ImageServerConfigurationError) {
            try configuration.validate()
        } catch {
            await close()
            throw error
        }
        var logger = configuration.makeLogHandler.map { Logger(label: "webimage", factory: $0) } ?? Logger(label: "webimage")
        logger.logLevel = configuration.logLevel
        // Every connection takes a file; so do fetches, cache files, listeners and logs.
        let before = OpenFileLimit.now()
        let files = OpenFileLimit.raised()
        let cap = files.connectionCap(requested: configuration.maxConnections, reserve: Self.reservedFiles(configuration))
        logger.info(
            "open files",
            metadata: [
                "limit": "\(files.current)", "was": "\(before.current)", "hard": "\(files.maximum)",
                "connections": "\(cap)", "requested": "\(configuration.maxConnections)",
            ])
        if Self.allocatorPolicy.apply(environment: ProcessInfo.processInfo.environment) {
            logger.info("large allocations returned on free", metadata: ["policy": "\(Self.allocatorPolicy)"])
        }
        let connections = ConnectionLimit(maximum: cap)
        let application = Application(
            router: try router(),
            server: .http1(
                configuration: HTTP1Channel.Configuration(
                    additionalChannelHandlers: [
                        ConnectionLimitHandler(limit: connections), RequestBodyRefusalHandler(),
                        WriteTimeoutHandler(timeout: .nanoseconds(Int64(configuration.writeTimeout * 1_000_000_000))),
                    ],
                    idleTimeout: .nanoseconds(Int64(configuration.idleTimeout * 1_000_000_000))
                )),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "webimage"
            ),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await application.runService() }
                if let metricsPort = configuration.metricsPort {
                    let metricsApplication = Application(
                        responder: MetricsResponder(metrics: metrics),
                        configuration: ApplicationConfiguration(
                            address: .hostname(configuration.metricsHost, port: metricsPort),
                            serverName: "webimage"
                        ),
                        onServerRunning: { channel in await onMetricsRunning(channel.localAddress?.port ?? 0) },
                        logger: logger
                    )
                    group.addTask { try await metricsApplication.runService() }
                }
                // When one listener stops (a signal, or a failure), the other stops too.
                try await group.next()
                group.cancelAll()
                try await group.waitForAll()
            }
        } catch {
            await close()
            throw error
        }
        await close()
    }

    /// The cache of sources `configuration` asks for. Each source is read once for each
    /// result it makes and results are kept on disk, so decoded sources are kept in memory
    /// only when ``ImageServerConfiguration/memoryLimit`` is set.
    static func sourceCacheConfiguration(_ configuration: ImageServerConfiguration) -> ImageCacheConfiguration {
        var sourceConfiguration = ImageCacheConfiguration()
        sourceConfiguration.shouldCacheImagesInMemory = configuration.memoryLimit > 0
        sourceConfiguration.maxMemoryCost = configuration.memoryLimit
        sourceConfiguration.maxDiskSize = configuration.maxSourceCacheBytes
        return sourceConfiguration
    }

    /// How the server has glibc treat freed blocks: blocks from 2 MiB go back to the system
    /// (see `AllocatorPolicy.returnBlocks(from:)`).
    static let allocatorPolicy = AllocatorPolicy.returnBlocks(from: 2 << 20)

    /// The open files kept free of connections: the source fetches, and a margin for the
    /// cache files, listeners, logs and the host lookups.
    static func reservedFiles(_ configuration: ImageServerConfiguration) -> Int {
        configuration.maxConcurrentFetches + 128
    }

    func close() async {
        workers.close()
        try? await downloader.shutdown()
        await sources.waitForDiskMaintenance()
        await results.waitForDiskMaintenance()
    }
}
