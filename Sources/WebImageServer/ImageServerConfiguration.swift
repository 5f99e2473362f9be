import Foundation
import Hummingbird
import Logging
import WebImage

/// How a `webimage serve` process behaves: where it listens, what it may fetch, how it
/// signs URLs and how long clients may keep its answers.
public struct ImageServerConfiguration: Sendable {
    /// The address to listen on (loopback by default).
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one.
    public var port = 8080
    /// The port `/metrics` is served on, apart from the images; `nil`, the default, serves
    /// no metrics. 0 picks a free one.
    public var metricsPort: Int?
    /// The address the metrics listener listens on (loopback by default).
    public var metricsHost = "127.0.0.1"
    /// The most connections held at once; a connection beyond it is closed as soon as it
    /// is accepted. At start the process's open-file limit is raised as far as the system
    /// allows, and the cap lowered if need be to keep files free for fetches and caches
    /// (the access log's `open files` line says what was set).
    public var maxConnections = 1024
    /// Seconds a connection may wait for a complete request head — from its opening, and
    /// from the end of its previous response while kept alive — before it is closed.
    public var idleTimeout: TimeInterval = 10
    /// Seconds an answer may stay backed up because its client stopped reading before the
    /// connection is closed.
    public var writeTimeout: TimeInterval = 30
    /// The folder holding the source cache and the result cache.
    public var cacheDirectory: URL
    /// The key URLs are signed with (HMAC-SHA256); `nil` with ``allowsUnsignedURLs``.
    public var signingKey: [UInt8]?
    /// The salt put in front of what is signed.
    public var signingSalt: [UInt8] = []
    /// More signers whose signatures are accepted too, for key rotation: a URL verifies
    /// when any one key and salt sign it.
    public var additionalSigners: [ImageURLSigner] = []
    /// Accept `_` as the signature segment (for local use only; never with a key, see
    /// ``validate()``).
    public var allowsUnsignedURLs = false
    /// The hosts sources may come from; empty means any public host.
    public var allowedHosts: Set<String> = []
    /// Fetch sources whose host resolves to a private, loopback or link-local address
    /// (for tests and local use).
    public var allowsPrivateSources = false
    /// Addresses sources may come from although they are not public (an image store on
    /// the server's own network), as IPv4 or IPv6 text.
    public var allowedSourceAddresses: Set<String> = []
    /// The ports sources may come from, for the first URL and every redirect (a URL that
    /// names none uses its scheme's, 80 or 443); empty, the default, allows any. `--demo`
    /// sets it to its sample server's port alone.
    public var allowedSourcePorts: Set<Int> = []
    /// How source host names are resolved; the connection goes to an address it answered,
    /// once checked.
    public var resolver = SourceHostResolver.system
    /// The most bytes a source may have.
    public var maxSourceBytes = 32 << 20
    /// The most pixels a source may have.
    public var maxSourcePixels = 50_000_000
    /// Seconds a source fetch may take in all; the fetch is given at most
    /// ``sourceDownloadDeadline``, below the request's own deadline.
    public var sourceTimeout: TimeInterval = 20
    /// The fewest bytes a second a source fetch must average once
    /// ``sourceRateGracePeriod`` has passed since its response head arrived (a slow first
    /// byte is the idle timeout's and the deadline's to judge); a slower one fails (504) and
    /// frees its fetch slot, so a source that trickles its body cannot hold one until the
    /// deadline. 0 measures no rate. 16 KiB a second: a 32 MiB source (``maxSourceBytes``)
    /// needs over 1.6 MB a second to arrive within ``sourceTimeout`` anyway.
    public var minSourceBytesPerSecond = 16 << 10
    /// Seconds from a fetch's response head before ``minSourceBytesPerSecond`` is measured.
    public static let sourceRateGracePeriod: TimeInterval = 2
    /// How long a fetch may take in all: ``sourceTimeout``, but never more than four fifths
    /// of ``requestTimeout``, so that a slow source fails as a fetch (504, "source timed
    /// out", its slot freed) before the request that asked for it runs out of time.
    public var sourceDownloadDeadline: TimeInterval {
        min(sourceTimeout, requestTimeout * 0.8)
    }
    /// How many image and `/info` requests are worked on (fetched, decoded, transformed,
    /// encoded) at once; more are answered 503. Results already in the result cache, 304s
    /// and `/health` take no slot.
    public var maxConcurrentRequests = 64
    /// The most pixels a result, and every intermediate canvas of its transform, may have;
    /// `nil` means ``maxSourcePixels``. More is answered 413 before the work starts.
    public var maxResultPixels: Int?
    /// The most operations one spec may have (format included); more are answered 400.
    public var maxOperations = 16
    /// The most frames an animated source may have.
    public var maxAnimationFrames = 100
    /// The most frames × pixels per frame an animated source may have.
    public var maxAnimationPixels = 500_000_000
    /// The pixel memory one request's transform may take, estimated for each step from
    /// the canvases it reads and writes, and for the encode from the result and its format,
    /// before the work runs; more is answered 413.
    public var requestMemoryBudget = 1 << 30
    /// The memory all the work in flight may take together, in bytes: each image and
    /// `/info` request is admitted by the bytes its plan says it takes (decode, each
    /// step's canvases and scratch, encode), and waits for room when the work already
    /// admitted holds too much. The default is half the memory the process may use
    /// (`ProcessMemory.available`: its cgroup's limit in a container or systemd slice,
    /// else physical memory), so a container's limit is met by waiting, not by the kernel's
    /// OOM killer.
    public var memoryBudget = ProcessMemory.available / 2
    /// Seconds a request waits for room under ``memoryBudget`` before it is answered 503.
    public var memoryWait: TimeInterval = 5
    /// The decoded bytes of sources kept for the other sizes asked of them (a page's
    /// `srcset`), counted in ``memoryBudget`` and given up first when a request needs room;
    /// `nil`, the default, is a quarter of ``memoryBudget`` up to 48 MiB, and 0 keeps none.
    /// A decode is kept for ``decodedSourceLifetime`` after its last use.
    ///
    /// The default is measured (Benchmarks/README.md, "A page's sizes from one decode"): in
    /// `scripts/benchmark-formats.sh`'s srcset mode (20 photographs of 1 to 6 MP, each at
    /// four widths, 8 clients), a tier without a bound served no more sizes from a kept
    /// decode than 64 MiB, and 48 MiB as many as 64 (within 3 points of the share of hits
    /// for each format) at a peak RSS 6 to 20 MiB lower. 48 MiB is the least that keeps
    /// the decode of a 12 MP photograph (45.8 MiB in RGBA).
    public var decodedSourceMemory: Int?
    /// Seconds a decoded source is kept after its last use (see ``decodedSourceMemory``):
    /// long enough for the sizes one page asks of a source, 5 by default.
    ///
    /// The default is measured with ``decodedSourceMemory``'s (Benchmarks/README.md, "A
    /// page's sizes from one decode"): with a tier of 64 MiB, 2 s lowered the peak RSS less
    /// than two runs of one setting differ and served fewer AVIF sizes from a kept decode
    /// (69 and 72 % of the requests against 75 %); 1 s, lower for WebP and AVIF in its one
    /// run, is shorter than a PNG or AVIF request takes under load, and the benchmark,
    /// which asks for a source's sizes together, is its best case.
    public var decodedSourceLifetime: TimeInterval = 5
    /// The most a source's longer side may be over its shorter one (a 1 × 30,000,000 strip
    /// is 30,000,000); a more extreme source is answered 422 before it is decoded.
    public var maxSourceAspectRatio: Double = 200
    /// Seconds one image or `/info` request may take in all — waiting for its source,
    /// fetching, decoding, transforming and encoding — before it is answered 504 (as
    /// imgproxy's `IMGPROXY_TIMEOUT`). Its fetch goes on for other requests that share it.
    public var requestTimeout: TimeInterval = 10
    /// How many sources are fetched at once, over all hosts.
    public var maxConcurrentFetches = 32
    /// How many sources are fetched at once from one host, so that one slow host cannot
    /// take every fetch.
    public var maxFetchesPerHost = 8
    /// The most bytes the disk cache of sources keeps; older entries are removed as it
    /// fills.
    public var maxSourceCacheBytes = 1 << 30
    /// The most bytes the disk cache of results keeps.
    public var maxResultCacheBytes = 1 << 30
    /// The `max-age` of `Cache-Control` on results, in seconds.
    public var resultMaxAge = 31_536_000
    /// The decoded bytes the memory cache of sources keeps; 0, the default, keeps none.
    ///
    /// A source is read once for each result it makes, and the result is kept in the
    /// disk cache of results, so decoded sources kept in memory mostly cost memory: they
    /// answer only a second spec over the same source at the same decoded size.
    public var memoryLimit = 0
    /// The encoded bytes of the most recently used results kept in memory beside the disk
    /// cache of results, 32 MiB by default; 0 keeps none. A result found there is answered
    /// without reading its file: on `scripts/benchmark-server.sh`'s cached run it is most
    /// of an answer's work. An entry larger than a quarter of the limit stays on disk only.
    public var resultMemoryLimit = 32 << 20
    /// The least severe log level written: `.info` writes one access-log line per request.
    public var logLevel = Logger.Level.info
    /// Makes the handler of the server's logger, by label; `nil`, the default, uses the
    /// process's logging system. The access-log line of a failed request carries the
    /// failure's full detail in its `detail` metadata.
    public var makeLogHandler: (@Sendable (String) -> any LogHandler)?
    /// Named specs a request uses as `preset=NAME`, expanded in place (a preset may not
    /// name another).
    public var presets: [String: String] = [:]
    /// Accept specs made only of `preset=NAME` (and `expires=`, `filename=` and
    /// `attachment`, which change no result); anything else is answered 400.
    public var onlyPresets = false
    /// Watermarks by name, decoded by the operator's tool from files it names; a spec
    /// uses one as `watermark=NAME[,GRAVITY[,OPACITY]]`, never by a path or URL.
    public var watermarks: [String: Image] = [:]
    /// The formats `format=best` writes the result in, each when the client's `Accept`
    /// names it and the server can write it, beside JPEG (PNG for a picture with alpha,
    /// the source's own for an animation that format holds): the smallest is answered.
    public var bestFormats: [ImageFormat] = [.webp, .avif]
    /// The formats `format=auto` answers in, in order of preference: the first the client's
    /// `Accept` names and the server can write; when it names none, the source's own
    /// format. The default is ``defaultAutoFormats``.
    public var autoFormats: [ImageFormat] = ImageServerConfiguration.defaultAutoFormats
    /// The order `format=auto` prefers without a setting: JPEG XL, AVIF, then WebP. At the
    /// server's defaults JPEG XL was the smallest of the three on four corpus photographs,
    /// resized to 800 pixels (0.62× AVIF's bytes, 0.82× WebP's) and untouched (a JPEG
    /// recompressed without loss: 0.74× AVIF's bytes, 0.79× WebP's, for the least CPU);
    /// the Benchmarks README has the table. AVIF stays ahead of WebP as before.
    public static let defaultAutoFormats: [ImageFormat] = [.jxl, .avif, .webp]
    /// The image answered, through the request's spec, in place of a source that fails;
    /// `nil`, the default, answers the failure's status.
    public var fallback: ImageServerFallback?
    /// Fallbacks by preset name: a request naming one of these presets is answered its
    /// fallback instead of ``fallback`` (the first such preset the spec names wins).
    public var presetFallbacks: [String: ImageServerFallback] = [:]
    /// The URL languages answered, told apart on one port by the segment after the
    /// signature: a native spec's operations hold `=` or `|` (or are a bare name such as
    /// `raw`), imgproxy's options hold `:` (or the path goes on with `plain` or a base64url
    /// source). Only ``ImageServerDialect/native`` by default, so that a URL of another
    /// server is never read by its rules unless the operator asks for them.
    public var dialects: Set<ImageServerDialect> = [.native]
    /// How imgproxy's URLs are answered when ``dialects`` holds
    /// ``ImageServerDialect/imgproxy``.
    public var imgproxy = ImgproxyConfiguration()
    /// How thumbor's URLs are answered when ``dialects`` holds
    /// ``ImageServerDialect/thumbor``.
    public var thumbor = ThumborConfiguration()
    /// The executable run as a decode worker, the `webimage` tool (`webimage serve` sets
    /// its own binary): the sources of ``decodeWorkerFormats`` (SVG always) are read and
    /// decoded in a ``DecodeWorker`` process of their own, killed at the request's deadline.
    /// `nil`, the default, runs none: such a source is answered 415, never decoded in process.
    public var decodeWorkerExecutable: URL?
    /// The formats whose sources are read in decode workers (header, decode and `/info`),
    /// beside SVG, which always is; SVG alone by default.
    public var decodeWorkerFormats: Set<ImageFormat> = [.svg]
    /// The address space a decode worker may map beyond its decode's plan, for the binary,
    /// its libraries and their heaps: 512 MiB by default, about twice the measured baseline
    /// of the `webimage` tool (see the Security article).
    public var decodeWorkerAddressSpace = 512 << 20
    /// The decode workers started ahead of their reads and kept waiting, ready, so that a
    /// read does not wait for a worker's start (each still answers one read and ends); 0
    /// starts each worker for its read. 2 by default.
    public var decodeWorkerPoolSize = 2
    /// An HTML page answered at `/` (the tool's `--demo` page); without one, `/` is refused
    /// like any other path that names no image.
    public var homePage: String?

    /// The most ``decodedSourceMemory`` keeps when not given: the least that keeps a 12 MP
    /// photograph's decode; the benchmark's pages saved no more decodes with more (see
    /// ``decodedSourceMemory``).
    static let measuredDecodedSourceMemory = 48 << 20

    /// The decoded bytes of sources kept: ``decodedSourceMemory`` when given, else a quarter
    /// of ``memoryBudget`` up to ``measuredDecodedSourceMemory``.
    var decodedSourceCapacity: Int {
        decodedSourceMemory ?? min(memoryBudget / 4, Self.measuredDecodedSourceMemory)
    }

    /// A configuration caching in `cacheDirectory`.
    public init(cacheDirectory: URL) {
        self.cacheDirectory = cacheDirectory
    }

    /// Checks the rules a server is not run without: no empty signing key, no unsigned URLs
    /// beside a key, fallbacks answered with 200 or an error status, no fallback for a
    /// preset that does not exist, at least one dialect, and, with imgproxy's, its keys in
    /// pairs, a signature size of 1 to 32 bytes, presets that read, and only presets when
    /// the native dialect serves only presets; with thumbor's, a security key (or `unsafe`
    /// URLs allowed) and not only presets.
    ///
    /// - Throws: ``ImageServerConfigurationError`` naming the first rule broken.
    public func validate() throws(ImageServerConfigurationError) {
        let signers = (signingKey.map { [ImageURLSigner(key: $0, salt: signingSalt)] } ?? []) + additionalSigners
        if signers.contains(where: \.hasEmptyKey) { throw .emptySigningKey }
        if allowsUnsignedURLs, !signers.isEmpty { throw .unsignedURLsWithSigningKey }
        for fallback in [fallback].compactMap(\.self) + presetFallbacks.values where !fallback.hasValidStatus {
            throw .badFallbackStatus(fallback.status)
        }
        if dialects.isEmpty { throw .noDialect }
        if dialects.contains(.imgproxy) {
            guard imgproxy.keys.count == imgproxy.salts.count, !imgproxy.keys.contains(where: \.isEmpty) else { throw .badImgproxyKeys }
            guard (1...32).contains(imgproxy.signatureSize) else { throw .badImgproxySignatureSize(imgproxy.signatureSize) }
            guard !onlyPresets || imgproxy.onlyPresets else { throw .onlyPresetsWithoutImgproxyPresets }
            _ = try ImgproxyDialect(imgproxy, hasWatermark: false)
        }
        if dialects.contains(.thumbor) {
            guard thumbor.securityKey.map({ !$0.isEmpty }) ?? thumbor.allowsUnsafeURLs else { throw .thumborWithoutKey }
            guard !onlyPresets else { throw .onlyPresetsWithThumbor }
        }
        if let name = presetFallbacks.keys.sorted().first(where: { presets[$0] == nil }) { throw .fallbackForUnknownPreset(name) }
    }
}
