#if Server
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Tracing
import WebImage
import WebImageServer

/// `webimage serve`: the image server (see ``ImageServer``).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve resized and converted images: GET /<signature>/<spec>/<source>.",
        discussion: """
            The source is plain/<percent-encoded URL> or the URL in base64url; the spec is a \
            transform spec (resize=400x300|format=webp,q=80; format=auto picks AVIF or WebP from \
            Accept). The signature is the base64url HMAC-SHA256, under --key, of --salt followed \
            by /<spec>/<source> as sent; with --insecure-unsigned it may be '_'. Keys are at least \
            32 bytes of hex; several --key (each with its --salt) rotate keys. Every source URL and \
            redirect is checked against --allow-host and the address policy where it connects. \
            Stops on SIGTERM or SIGINT after finishing the requests in flight.

            Every setting below is read from its flag, its environment variable (shown in \
            brackets: WEBIMAGE_ and the flag's name in capitals, '-' as '_'; list items separated \
            by ';') and the key of the --config JSON file named like the flag (a list as an array \
            of strings): flags first, then WEBIMAGE_* environment variables, then the --config \
            file, then the default. --print-config shows the result, secrets masked.
            """
    )

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("A JSON file of settings, keyed by their flags' names (or WEBIMAGE_CONFIG).", valueName: "file")
    )
    var configurationFile: String?

    @Flag(name: .customLong("print-config"), help: "Print the effective settings, where each came from, secrets masked, and exit.")
    var printConfiguration = false

    @Option(help: ServerSetting.host.help("The address to listen on."))
    var host: String?

    @Option(help: ServerSetting.port.help("The port to listen on (0: any free port)."))
    var port: String?

    @OptionGroup var location: CacheLocationOptions

    @Option(
        name: .customLong("key"),
        help: ServerSetting.key.help("A signing key, at least 32 bytes in hex; repeat to accept several.", valueName: "hex"))
    var keys: [String] = []

    @Option(name: .customLong("salt"), help: ServerSetting.salt.help("The signing salt, in hex; one, or one per --key.", valueName: "hex"))
    var salts: [String] = []

    @Flag(inversion: .prefixedNo, help: ServerSetting.insecureUnsigned.help("Accept '_' as the signature (local use only)."))
    var insecureUnsigned: Bool?

    @Option(
        name: .customLong("allow-host"),
        help: ServerSetting.allowHost.help("A host sources may come from (repeatable; default: any public host).", valueName: "host"))
    var allowedHosts: [String] = []

    @Flag(
        inversion: .prefixedNo,
        help: ServerSetting.allowPrivateSources.help("Fetch sources on private, loopback and link-local addresses (tests and local use)."))
    var allowPrivateSources: Bool?

    @Option(
        name: .customLong("allow-address"),
        help: ServerSetting.allowAddress.help("A private address sources may come from (repeatable).", valueName: "address"))
    var allowedAddresses: [String] = []

    @Option(help: ServerSetting.maxSourceBytes.help("The most bytes a source may have.", valueName: "size"))
    var maxSourceBytes: String?

    @Option(help: ServerSetting.maxSourcePixels.help("The most pixels a source may have."))
    var maxSourcePixels: String?

    @Option(help: ServerSetting.maxResultPixels.help("The most pixels a result, or any canvas on the way, may have (default: --max-source-pixels)."))
    var maxResultPixels: String?

    @Option(help: ServerSetting.maxOperations.help("The most operations one spec may have."))
    var maxOperations: String?

    @Option(help: ServerSetting.maxAnimationFrames.help("The most frames an animated source may have."))
    var maxAnimationFrames: String?

    @Option(help: ServerSetting.maxAnimationPixels.help("The most frames × pixels an animated source may have."))
    var maxAnimationPixels: String?

    @Option(help: ServerSetting.requestMemory.help("The memory one request's transform and encode may take.", valueName: "size"))
    var requestMemory: String?

    @Option(
        help: ServerSetting.memoryBudget.help(
            "The memory all requests in flight may take together, by their plans (default: half the memory the process may use: its cgroup's limit, else physical memory); a request waits for room, then is answered 503.",
            valueName: "size"))
    var memoryBudget: String?

    @Option(help: ServerSetting.memoryWait.help("Seconds a request waits for room in the memory budget.", valueName: "seconds"))
    var memoryWait: String?

    @Option(
        help: ServerSetting.decodedSourceMemory.help(
            "Decoded bytes of sources kept for the other sizes asked of them, within the memory budget and given up first when a request needs room (default: a quarter of the memory budget, at most 48M); 0 keeps none.",
            valueName: "size"))
    var decodedSourceMemory: String?

    @Option(help: ServerSetting.decodedSourceLifetime.help("Seconds a decoded source is kept after its last use.", valueName: "seconds"))
    var decodedSourceLifetime: String?

    @Option(help: ServerSetting.maxAspectRatio.help("The most a source's longer side may be over its shorter; more is answered 422."))
    var maxAspectRatio: String?

    @Option(
        help: ServerSetting.requestTimeout.help("Seconds an image or /info request may take in all; longer is answered 504.", valueName: "seconds"))
    var requestTimeout: String?

    @Option(help: ServerSetting.maxFetches.help("Sources fetched at once, over all hosts."))
    var maxFetches: String?

    @Option(help: ServerSetting.maxFetchesPerHost.help("Sources fetched at once from one host."))
    var maxFetchesPerHost: String?

    @Option(help: ServerSetting.maxSourceCache.help("The most bytes the source cache keeps on disk.", valueName: "size"))
    var maxSourceCache: String?

    @Option(help: ServerSetting.maxResultCache.help("The most bytes the result cache keeps on disk.", valueName: "size"))
    var maxResultCache: String?

    @Option(help: ServerSetting.timeout.help("Seconds a source fetch may take (at most 4/5 of the request timeout).", valueName: "seconds"))
    var timeout: String?

    @Option(
        help: ServerSetting.minSourceRate.help(
            "Bytes a second a source fetch must average from two seconds after its response head; 0 measures no rate.", valueName: "size")
    )
    var minSourceRate: String?

    @Option(help: ServerSetting.concurrency.help("Image requests worked on at once; more are answered 503 with Retry-After (cached results take no slot)."))
    var concurrency: String?

    @Option(help: ServerSetting.maxConnections.help("Connections held at once; more are closed as they arrive."))
    var maxConnections: String?

    @Option(
        help: ServerSetting.idleTimeout.help(
            "Seconds a connection may take to send a request head, or stay idle between requests.", valueName: "seconds"))
    var idleTimeout: String?

    @Option(
        help: ServerSetting.writeTimeout.help(
            "Seconds an answer may stay backed up because its client stopped reading before the connection is closed.",
            valueName: "seconds"))
    var writeTimeout: String?

    @Option(help: ServerSetting.metricsPort.help("The port /metrics is served on (none by default; 0: any free port)."))
    var metricsPort: String?

    @Option(help: ServerSetting.metricsHost.help("The address the metrics port listens on."))
    var metricsHost: String?

    @Option(help: ServerSetting.maxAge.help("The max-age of results' Cache-Control, in seconds.", valueName: "seconds"))
    var maxAge: String?

    @Option(help: ServerSetting.memoryLimit.help("Decoded bytes the memory cache of sources keeps; 0 keeps none.", valueName: "size"))
    var memoryLimit: String?

    @Option(help: ServerSetting.resultMemoryLimit.help("Encoded bytes of recent results kept in memory beside their disk cache; 0 keeps none.", valueName: "size"))
    var resultMemoryLimit: String?

    @Option(name: .customLong("preset"), help: ServerSetting.preset.help("A named spec, used as preset=NAME (repeatable).", valueName: "name=spec"))
    var presets: [String] = []

    @Flag(inversion: .prefixedNo, help: ServerSetting.onlyPresets.help("Accept only specs made of preset=NAME (and expires=, filename=, attachment)."))
    var onlyPresets: Bool?

    @Option(
        name: .customLong("watermark"),
        help: ServerSetting.watermark.help("An image file used as watermark=NAME[,GRAVITY[,OPACITY]] (repeatable).", valueName: "name=path"))
    var watermarks: [String] = []

    @Option(
        help: ServerSetting.fallbackImage.help(
            "An image file answered, through the request's spec, when the source fails (not found, refused, timed out, not an image, over a limit).",
            valueName: "path"))
    var fallbackImage: String?

    @Option(help: ServerSetting.fallbackStatus.help("The status answered with a fallback image: 200, or 400 to 599.", valueName: "status"))
    var fallbackStatus: String?

    @Option(help: ServerSetting.fallbackMaxAge.help("The max-age of a fallback's Cache-Control, in seconds.", valueName: "seconds"))
    var fallbackMaxAge: String?

    @Option(
        name: .customLong("preset-fallback-image"),
        help: ServerSetting.presetFallbackImage.help(
            "An image file answered instead of --fallback-image for requests naming the preset (repeatable).", valueName: "name=path"))
    var presetFallbackImages: [String] = []

    @Option(
        name: .customLong("best-format"),
        help: ServerSetting.bestFormat.help(
            "A format format=best tries, when the client accepts it, beside JPEG or PNG (repeatable; without one: webp and avif).",
            valueName: "format"))
    var bestFormats: [String] = []

    @Option(
        name: .customLong("auto-format"),
        help: ServerSetting.autoFormat.help(
            "A format format=auto answers in when the client accepts it, in order of preference (repeatable; without one: jxl, avif, webp).",
            valueName: "format"))
    var autoFormats: [String] = []

    @Option(
        name: .customLong("dialect"),
        help: ServerSetting.dialect.help(
            "A URL language answered: native, imgproxy (its URLs, signatures and IMGPROXY_* settings) or thumbor (its URLs, signatures and configuration file) (repeatable).",
            valueName: "dialect"))
    var dialects: [String] = []

    @Option(
        name: .customLong("thumbor-config"),
        help: ServerSetting.thumborConfig.help("thumbor's configuration file (thumbor.conf), read with --dialect thumbor.", valueName: "path"))
    var thumborConfig: String?

    @Option(
        help: ServerSetting.decodeWorkerMemory.help(
            "Address space a decode worker (SVG) may map beyond its decode's plan, for the binary and its libraries.", valueName: "size"))
    var decodeWorkerMemory: String?

    @Option(
        help: ServerSetting.decodeWorkerPool.help(
            "Decode workers started ahead of their reads and kept waiting (each answers one read); 0 starts each for its read."))
    var decodeWorkerPool: String?

    @Option(
        name: .customLong("decode-worker-format"),
        help: ServerSetting.decodeWorkerFormat.help(
            "A format whose sources are read in decode workers, beside SVG, which always is (repeatable).", valueName: "format"))
    var decodeWorkerFormats: [String] = []

    @Flag(
        inversion: .prefixedNo,
        help: ServerSetting.demo.help("Serve the demo's sample images from loopback and a page of them through the server at /."))
    var demo: Bool?

    @Option(help: ServerSetting.demoSamples.help("How many sample images the --demo page shows."))
    var demoSamples: String?

    /// The texts given on the command line, by setting.
    private var flagTexts: [ServerSetting: [String]] {
        let scalars: [(ServerSetting, String?)] = [
            (.host, host), (.port, port), (.cacheDirectory, location.cacheDirectory), (.insecureUnsigned, insecureUnsigned.map { String($0) }),
            (.allowPrivateSources, allowPrivateSources.map { String($0) }), (.maxSourceBytes, maxSourceBytes),
            (.maxSourcePixels, maxSourcePixels), (.maxResultPixels, maxResultPixels), (.maxOperations, maxOperations),
            (.maxAnimationFrames, maxAnimationFrames), (.maxAnimationPixels, maxAnimationPixels), (.requestMemory, requestMemory),
            (.memoryBudget, memoryBudget), (.memoryWait, memoryWait), (.decodedSourceMemory, decodedSourceMemory),
            (.decodedSourceLifetime, decodedSourceLifetime), (.maxAspectRatio, maxAspectRatio), (.requestTimeout, requestTimeout),
            (.maxFetches, maxFetches), (.maxFetchesPerHost, maxFetchesPerHost),
            (.maxSourceCache, maxSourceCache), (.maxResultCache, maxResultCache), (.timeout, timeout), (.minSourceRate, minSourceRate), (.concurrency, concurrency),
            (.maxConnections, maxConnections), (.idleTimeout, idleTimeout), (.writeTimeout, writeTimeout), (.metricsPort, metricsPort), (.metricsHost, metricsHost),
            (.maxAge, maxAge), (.memoryLimit, memoryLimit), (.resultMemoryLimit, resultMemoryLimit), (.onlyPresets, onlyPresets.map { String($0) }),
            (.demo, demo.map { String($0) }),
            (.demoSamples, demoSamples), (.fallbackImage, fallbackImage), (.fallbackStatus, fallbackStatus),
            (.fallbackMaxAge, fallbackMaxAge), (.decodeWorkerMemory, decodeWorkerMemory), (.decodeWorkerPool, decodeWorkerPool),
            (.thumborConfig, thumborConfig),
        ]
        let lists: [(ServerSetting, [String])] = [
            (.key, keys), (.salt, salts), (.allowHost, allowedHosts), (.allowAddress, allowedAddresses), (.preset, presets),
            (.watermark, watermarks), (.presetFallbackImage, presetFallbackImages), (.bestFormat, bestFormats),
            (.autoFormat, autoFormats), (.decodeWorkerFormat, decodeWorkerFormats),
            (.dialect, dialects),
        ]
        var texts: [ServerSetting: [String]] = [:]
        for (setting, text) in scalars { texts[setting] = text.map { [$0] } }
        for (setting, items) in lists where !items.isEmpty { texts[setting] = items }
        return texts
    }

    /// The effective settings: the flags, then the environment, then the `--config` file
    /// (or `WEBIMAGE_CONFIG`'s), then the defaults.
    private func settings(environment: [String: String]) throws -> ServerSettings {
        let path = configurationFile ?? environment[ServerSetting.environmentPrefix + "_CONFIG"]
        return try ServerSettings(flags: flagTexts, environment: environment, file: try path.map { try ServerConfigurationFile(path: $0) })
    }

    /// Checks the settings that have limits, naming each as its source gives it.
    private static func check(_ settings: ServerSettings) throws {
        for setting in [ServerSetting.concurrency, .maxConnections, .maxOperations, .demoSamples, .maxAspectRatio, .maxFetches, .maxFetchesPerHost]
        where (settings.integer(setting) ?? 1) < 1 {
            throw ValidationError("\(settings.label(of: setting)) must be at least 1")
        }
        for setting in [ServerSetting.maxSourcePixels, .maxResultPixels, .maxAnimationFrames, .maxAnimationPixels, .maxAge, .fallbackMaxAge]
        where (settings.integer(setting) ?? 0) < 0 {
            throw ValidationError("\(settings.label(of: setting)) must not be negative")
        }
        for setting in [ServerSetting.timeout, .idleTimeout, .writeTimeout, .requestTimeout, .memoryWait, .decodedSourceLifetime] where !((settings.seconds(setting) ?? 1) > 0) {
            throw ValidationError("\(settings.label(of: setting)) must be more than 0")
        }
        for setting in [ServerSetting.port, .metricsPort] where !(0...65535).contains(settings.integer(setting) ?? 0) {
            throw ValidationError("\(settings.label(of: setting)) must be 0 to 65535")
        }
        _ = try signers(settings)
        _ = try namedPresets(settings)
        if settings.flag(.onlyPresets), settings.list(.preset).isEmpty {
            throw ValidationError("\(settings.label(of: .onlyPresets)) needs at least one preset (--preset)")
        }
        if let bad = settings.list(.watermark).first(where: { pair($0) == nil }) {
            throw ValidationError("\(settings.label(of: .watermark)) \(bad) is not NAME=PATH")
        }
        if let status = settings.integer(.fallbackStatus), status != 200, !(400...599).contains(status) {
            throw ValidationError("\(settings.label(of: .fallbackStatus)) must be 200 or 400 to 599")
        }
        let presets = Set(settings.list(.preset).compactMap { pair($0)?.0 })
        for item in settings.list(.presetFallbackImage) {
            guard let (name, _) = pair(item) else {
                throw ValidationError("\(settings.label(of: .presetFallbackImage)) \(item) is not NAME=PATH")
            }
            guard presets.contains(name) else {
                throw ValidationError("\(settings.label(of: .presetFallbackImage)) \(name): there is no preset by that name (--preset)")
            }
        }
        _ = try formats(settings, .bestFormat)
        _ = try formats(settings, .autoFormat)
        if let address = settings.list(.allowAddress).first(where: { !isIPAddress($0) }) {
            throw ValidationError("\(settings.label(of: .allowAddress)) \(address) is not an IP address")
        }
    }

    /// The URL dialects served, each a name of ``ImageServerDialect``.
    private static func dialects(_ settings: ServerSettings) throws -> Set<ImageServerDialect> {
        var dialects: Set<ImageServerDialect> = []
        for name in settings.list(.dialect) {
            guard let dialect = ImageServerDialect(rawValue: name.lowercased()) else {
                throw ValidationError("\(settings.label(of: .dialect)) \(name) is not native, imgproxy or thumbor")
            }
            dialects.insert(dialect)
        }
        return dialects
    }

    /// The signers of the keys given, checked (see ``SigningKeys``); none are needed when
    /// the native dialect is not served.
    private static func signers(_ settings: ServerSettings) throws -> [ImageURLSigner] {
        if try !dialects(settings).contains(.native), settings.list(.key).isEmpty, !settings.flag(.insecureUnsigned) { return [] }
        return try SigningKeys.signers(
            keys: settings.list(.key).map { (settings.label(of: .key), $0) },
            salts: settings.list(.salt).map { (settings.label(of: .salt), $0) },
            insecureUnsigned: settings.flag(.insecureUnsigned) ? settings.label(of: .insecureUnsigned) : nil)
    }

    /// The presets given, by name, each checked to be a spec.
    private static func namedPresets(_ settings: ServerSettings) throws -> [String: String] {
        var named: [String: String] = [:]
        let label = settings.label(of: .preset)
        for preset in settings.list(.preset) {
            guard let (name, spec) = pair(preset) else { throw ValidationError("\(label) \(preset) is not NAME=SPEC") }
            do {
                _ = try TransformSpec(spec) { _ in Image(bitmap: Bitmap(width: 1, height: 1)) }
            } catch {
                throw ValidationError("\(label) \(name): \(error)")
            }
            named[name] = spec
        }
        return named
    }

    /// The watermark images, decoded from their files.
    private static func loadWatermarks(_ settings: ServerSettings) throws -> [String: Image] {
        var loaded: [String: Image] = [:]
        let label = settings.label(of: .watermark)
        for watermark in settings.list(.watermark) {
            guard let (name, path) = pair(watermark) else { throw ValidationError("\(label) \(watermark) is not NAME=PATH") }
            do {
                loaded[name] = try ImageCodersManager.shared.decode(try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw ValidationError("\(label) \(name): cannot read \(path): \(error)")
            }
        }
        return loaded
    }

    /// The formats of a list `setting` (`format=best`'s, `format=auto`'s), each one the
    /// server can write; `nil` when none is given, for the server's default.
    private static func formats(_ settings: ServerSettings, _ setting: ServerSetting) throws -> [ImageFormat]? {
        let names = settings.list(setting)
        guard !names.isEmpty else { return nil }
        return try names.map { name in
            guard let format = ImageFormat(rawValue: name.lowercased()), ImageCodersManager.shared.canEncode(to: format) else {
                throw ValidationError("\(settings.label(of: setting)) \(name) is not a format this server writes")
            }
            return format
        }
    }

    /// The formats `setting` names, each one this server decodes.
    private static func decodedFormats(_ settings: ServerSettings, _ setting: ServerSetting) throws -> [ImageFormat] {
        try settings.list(setting).map { name in
            guard let format = ImageFormat(rawValue: name.lowercased()),
                ImageCodersManager.shared.coders.contains(where: { $0.decodableFormats.contains(format) })
            else { throw ValidationError("\(settings.label(of: setting)) \(name) is not a format this server decodes") }
            return format
        }
    }

    /// The fallback images, decoded from their files: the server's, and the presets' by
    /// name. A file that is not an image stops the server from starting.
    private static func loadFallbacks(_ settings: ServerSettings) throws -> (ImageServerFallback?, [String: ImageServerFallback]) {
        let status = settings.integer(.fallbackStatus) ?? 200
        let maxAge = settings.integer(.fallbackMaxAge) ?? ImageServerFallback.defaultMaxAge
        func load(_ path: String, label: String) throws -> ImageServerFallback {
            do {
                return try ImageServerFallback(data: try Data(contentsOf: URL(fileURLWithPath: path)), status: status, maxAge: maxAge)
            } catch {
                throw ValidationError("\(label): cannot read the image \(path): \(error)")
            }
        }
        let fallback = try settings.text(.fallbackImage).map { try load($0, label: settings.label(of: .fallbackImage)) }
        var presetFallbacks: [String: ImageServerFallback] = [:]
        for item in settings.list(.presetFallbackImage) {
            guard let (name, path) = pair(item) else {
                throw ValidationError("\(settings.label(of: .presetFallbackImage)) \(item) is not NAME=PATH")
            }
            presetFallbacks[name] = try load(path, label: "\(settings.label(of: .presetFallbackImage)) \(name)")
        }
        return (fallback, presetFallbacks)
    }

    /// `NAME=VALUE` split at its first `=`; `nil` when either side is empty.
    static func pair(_ text: String) -> (String, String)? {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    func run() async throws {
        let settings = try settings(environment: ProcessInfo.processInfo.environment)
        try Self.check(settings)
        // imgproxy's variables are read and checked before anything starts, each one set
        // named: applied, warned about, or refused.
        let imgproxy = try Self.dialects(settings).contains(.imgproxy) ? ImgproxyEnvironment(ProcessInfo.processInfo.environment) : nil
        let thumbor = try Self.dialects(settings).contains(.thumbor) ? ThumborSettings(path: settings.text(.thumborConfig)) : nil
        if thumbor == nil, let path = settings.text(.thumborConfig) {
            throw ValidationError("\(settings.label(of: .thumborConfig)) \(path) is given, but the thumbor dialect is not served (--dialect thumbor)")
        }
        for warning in (imgproxy?.warnings ?? []) + (thumbor?.warnings ?? []) { FileHandle.standardError.write(Data("webimage serve: warning: \(warning)\n".utf8)) }
        // Tracing follows the standard OTEL_* variables; one this server cannot follow stops it.
        let tracing = try Self.tracing(ProcessInfo.processInfo.environment)
        if printConfiguration {
            print(settings.lines.joined(separator: "\n"))
            return
        }
        let cacheDirectory = settings.text(.cacheDirectory).map { URL(fileURLWithPath: $0, isDirectory: true) } ?? location.directory
        var configuration = ImageServerConfiguration(cacheDirectory: cacheDirectory.appendingPathComponent("server", isDirectory: true))
        configuration.host = settings.text(.host) ?? configuration.host
        configuration.port = settings.integer(.port) ?? configuration.port
        let signers = try Self.signers(settings)
        configuration.additionalSigners = signers
        configuration.allowsUnsignedURLs = settings.flag(.insecureUnsigned)
        configuration.allowedHosts = Set(settings.list(.allowHost).map { $0.lowercased() })
        configuration.allowsPrivateSources = settings.flag(.allowPrivateSources)
        configuration.allowedSourceAddresses = Set(settings.list(.allowAddress))
        configuration.maxSourceBytes = settings.size(.maxSourceBytes) ?? configuration.maxSourceBytes
        configuration.maxSourcePixels = settings.integer(.maxSourcePixels) ?? configuration.maxSourcePixels
        configuration.maxResultPixels = settings.integer(.maxResultPixels)
        configuration.maxOperations = settings.integer(.maxOperations) ?? configuration.maxOperations
        configuration.maxAnimationFrames = settings.integer(.maxAnimationFrames) ?? configuration.maxAnimationFrames
        configuration.maxAnimationPixels = settings.integer(.maxAnimationPixels) ?? configuration.maxAnimationPixels
        configuration.requestMemoryBudget = settings.size(.requestMemory) ?? configuration.requestMemoryBudget
        configuration.memoryBudget = settings.size(.memoryBudget) ?? configuration.memoryBudget
        configuration.memoryWait = settings.seconds(.memoryWait) ?? configuration.memoryWait
        configuration.decodedSourceMemory = settings.size(.decodedSourceMemory)
        configuration.decodedSourceLifetime = settings.seconds(.decodedSourceLifetime) ?? configuration.decodedSourceLifetime
        configuration.maxSourceAspectRatio = settings.integer(.maxAspectRatio).map(Double.init) ?? configuration.maxSourceAspectRatio
        configuration.requestTimeout = settings.seconds(.requestTimeout) ?? configuration.requestTimeout
        configuration.maxConcurrentFetches = settings.integer(.maxFetches) ?? configuration.maxConcurrentFetches
        configuration.maxFetchesPerHost = settings.integer(.maxFetchesPerHost) ?? configuration.maxFetchesPerHost
        configuration.maxSourceCacheBytes = settings.size(.maxSourceCache) ?? configuration.maxSourceCacheBytes
        configuration.maxResultCacheBytes = settings.size(.maxResultCache) ?? configuration.maxResultCacheBytes
        configuration.sourceTimeout = settings.seconds(.timeout) ?? configuration.sourceTimeout
        configuration.minSourceBytesPerSecond = settings.size(.minSourceRate) ?? configuration.minSourceBytesPerSecond
        configuration.maxConcurrentRequests = settings.integer(.concurrency) ?? configuration.maxConcurrentRequests
        configuration.maxConnections = settings.integer(.maxConnections) ?? configuration.maxConnections
        configuration.idleTimeout = settings.seconds(.idleTimeout) ?? configuration.idleTimeout
        configuration.writeTimeout = settings.seconds(.writeTimeout) ?? configuration.writeTimeout
        configuration.metricsPort = settings.integer(.metricsPort)
        configuration.metricsHost = settings.text(.metricsHost) ?? configuration.metricsHost
        configuration.resultMaxAge = settings.integer(.maxAge) ?? configuration.resultMaxAge
        configuration.memoryLimit = settings.size(.memoryLimit) ?? configuration.memoryLimit
        configuration.resultMemoryLimit = settings.size(.resultMemoryLimit) ?? configuration.resultMemoryLimit
        configuration.presets = try Self.namedPresets(settings)
        configuration.onlyPresets = settings.flag(.onlyPresets)
        configuration.watermarks = try Self.loadWatermarks(settings)
        (configuration.fallback, configuration.presetFallbacks) = try Self.loadFallbacks(settings)
        configuration.bestFormats = try Self.formats(settings, .bestFormat) ?? configuration.bestFormats
        configuration.autoFormats = try Self.formats(settings, .autoFormat) ?? configuration.autoFormats
        configuration.dialects = try Self.dialects(settings)
        imgproxy?.apply(to: &configuration, settings: settings)
        thumbor?.apply(to: &configuration, settings: settings)
        // SVG decodes only in a worker: this very binary, `webimage decode-worker`.
        configuration.decodeWorkerExecutable = URL(fileURLWithPath: "/proc/self/exe")
        configuration.decodeWorkerAddressSpace = settings.size(.decodeWorkerMemory) ?? configuration.decodeWorkerAddressSpace
        configuration.decodeWorkerPoolSize = settings.integer(.decodeWorkerPool) ?? configuration.decodeWorkerPoolSize
        configuration.decodeWorkerFormats.formUnion(try Self.decodedFormats(settings, .decodeWorkerFormat))
        let host = configuration.host, metricsHost = configuration.metricsHost
        var samples: DemoImageServer?
        if settings.flag(.demo) {
            let started = try await DemoImageServer.start(count: settings.integer(.demoSamples) ?? 24, largestSide: 1200)
            samples = started
            // The samples live on loopback: only their server — its address and its port,
            // not every service on loopback — is let through, unless the operator named
            // the hosts. The address policy stays as the operator set it.
            if configuration.allowedHosts.isEmpty {
                configuration.allowedHosts = [started.server.host]
                configuration.allowedSourceAddresses.insert(started.server.host)
                configuration.allowedSourcePorts = [started.server.port]
            }
            configuration.homePage = ServerDemoPage.html(sources: started.urls, signer: signers.first)
        }
        // The tracer is everyone's, so that the downloader's requests are spans of the trace too.
        let tracer = tracing.map(OTLPTracer.init)
        if let tracer { InstrumentationSystem.bootstrap(tracer) }
        let server = ImageServer(configuration: configuration, tracer: tracer)
        do {
            try await server.run(
                onRunning: { port in
                    FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
                },
                onMetricsRunning: { port in
                    FileHandle.standardOutput.write(Data("metrics on http://\(metricsHost):\(port)/metrics\n".utf8))
                })
        } catch {
            try? await samples?.stop()
            await tracer?.shutdown()
            throw error
        }
        try? await samples?.stop()
        await tracer?.shutdown()
    }

    /// The OTLP exporter's configuration the `OTEL_*` variables in `environment` describe,
    /// `nil` when they leave tracing off; each `OTEL_*` variable this server does not read
    /// is named in a warning.
    static func tracing(_ environment: [String: String]) throws -> OTLPConfiguration? {
        let configuration: OTLPConfiguration?
        do {
            configuration = try OTLPConfiguration(environment: environment)
        } catch {
            throw ValidationError("\(error)")
        }
        for name in OTLPConfiguration.unreadVariables(in: environment) {
            FileHandle.standardError.write(Data("webimage serve: warning: \(name) is not read by this server and has no effect\n".utf8))
        }
        return configuration
    }

    /// Whether `text` is an IPv4 or IPv6 address.
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// The bytes a hexadecimal string spells; `nil` for an odd length or another character.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
#endif
