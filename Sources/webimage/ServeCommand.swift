#if Server
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080

    @OptionGroup var location: CacheLocationOptions

    @Option(
        name: .customLong("key"),
        help: ArgumentHelp(
            "A signing key, at least 32 bytes in hex (or the WEBIMAGE_KEY environment variable); repeat to accept several.",
            valueName: "hex"))
    var keys: [String] = []

    @Option(
        name: .customLong("salt"),
        help: ArgumentHelp("The signing salt, in hex (or WEBIMAGE_SALT); one, or one per --key.", valueName: "hex"))
    var salts: [String] = []

    @Flag(help: "Accept '_' as the signature (local use only).")
    var insecureUnsigned = false

    @Option(name: .customLong("allow-host"), help: ArgumentHelp("A host sources may come from (repeatable; default: any public host).", valueName: "host"))
    var allowedHosts: [String] = []

    @Flag(help: "Fetch sources on private, loopback and link-local addresses (tests and local use).")
    var allowPrivateSources = false

    @Option(
        name: .customLong("allow-address"),
        help: ArgumentHelp("A private address sources may come from (repeatable).", valueName: "address"))
    var allowedAddresses: [String] = []

    @Option(help: ArgumentHelp("The most bytes a source may have.", valueName: "size"))
    var maxSourceBytes = ByteSize(argument: "32M")!

    @Option(help: "The most pixels a source may have.")
    var maxSourcePixels = 50_000_000

    @Option(help: "The most pixels a result, or any canvas on the way, may have (default: --max-source-pixels).")
    var maxResultPixels: Int?

    @Option(help: "The most operations one spec may have.")
    var maxOperations = 16

    @Option(help: "The most frames an animated source may have.")
    var maxAnimationFrames = 100

    @Option(help: "The most frames × pixels an animated source may have.")
    var maxAnimationPixels = 500_000_000

    @Option(help: ArgumentHelp("The pixel memory one request's transform may take.", valueName: "size"))
    var requestMemory = ByteSize(argument: "1G")!

    @Option(help: ArgumentHelp("The most bytes the source cache keeps on disk.", valueName: "size"))
    var maxSourceCache = ByteSize(argument: "1G")!

    @Option(help: ArgumentHelp("The most bytes the result cache keeps on disk.", valueName: "size"))
    var maxResultCache = ByteSize(argument: "1G")!

    @Option(help: ArgumentHelp("Seconds a source fetch may take.", valueName: "seconds"))
    var timeout = 20.0

    @Option(help: "Image requests worked on at once; more are answered 503 with Retry-After.")
    var concurrency = 64

    @Option(help: "Connections held at once; more are closed as they arrive.")
    var maxConnections = 1024

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may take to send a request head, or stay idle between requests.", valueName: "seconds"))
    var idleTimeout = 10.0

    @Option(help: "The port /metrics is served on (none by default; 0: any free port).")
    var metricsPort: Int?

    @Option(help: "The address the metrics port listens on.")
    var metricsHost = "127.0.0.1"

    @Option(help: ArgumentHelp("The max-age of results' Cache-Control, in seconds.", valueName: "seconds"))
    var maxAge = 31_536_000

    @Option(help: ArgumentHelp("Decoded bytes the memory cache of sources keeps.", valueName: "size"))
    var memoryLimit = ByteSize(argument: "128M")!

    @Option(name: .customLong("preset"), help: ArgumentHelp("A named spec, used as preset=NAME (repeatable).", valueName: "name=spec"))
    var presets: [String] = []

    @Flag(help: "Accept only specs made of preset=NAME (and expires=).")
    var onlyPresets = false

    @Option(
        name: .customLong("watermark"),
        help: ArgumentHelp("An image file used as watermark=NAME[,GRAVITY[,OPACITY]] (repeatable).", valueName: "name=path"))
    var watermarks: [String] = []

    @Flag(help: "Serve the demo's sample images from loopback and a page of them through the server at /.")
    var demo = false

    @Option(help: "How many sample images the --demo page shows.")
    var demoSamples = 24

    func validate() throws {
        _ = try signers
        if concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
        if maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        if demoSamples < 1 { throw ValidationError("--demo-samples must be at least 1") }
        if !(idleTimeout > 0) { throw ValidationError("--idle-timeout must be more than 0") }
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0 to 65535") }
        if let metricsPort, !(0...65535).contains(metricsPort) { throw ValidationError("--metrics-port must be 0 to 65535") }
        if maxOperations < 1 { throw ValidationError("--max-operations must be at least 1") }
        _ = try namedPresets
        if onlyPresets, presets.isEmpty { throw ValidationError("--only-presets needs at least one --preset") }
        if let bad = watermarks.first(where: { Self.pair($0) == nil }) {
            throw ValidationError("--watermark \(bad) is not NAME=PATH")
        }
        if let address = allowedAddresses.first(where: { !Self.isIPAddress($0) }) {
            throw ValidationError("--allow-address \(address) is not an IP address")
        }
    }

    /// The signers of the keys given, checked (see ``SigningKeys``).
    private var signers: [ImageURLSigner] {
        get throws {
            try SigningKeys.signers(
                keys: keys, salts: salts, environment: ProcessInfo.processInfo.environment, insecureUnsigned: insecureUnsigned)
        }
    }

    /// The presets given, by name, each checked to be a spec.
    private var namedPresets: [String: String] {
        get throws {
            var named: [String: String] = [:]
            for preset in presets {
                guard let (name, spec) = Self.pair(preset) else { throw ValidationError("--preset \(preset) is not NAME=SPEC") }
                do {
                    _ = try TransformSpec(spec) { _ in Image(bitmap: Bitmap(width: 1, height: 1)) }
                } catch {
                    throw ValidationError("--preset \(name): \(error)")
                }
                named[name] = spec
            }
            return named
        }
    }

    /// The watermark images, decoded from their files.
    private func loadWatermarks() throws -> [String: Image] {
        var loaded: [String: Image] = [:]
        for watermark in watermarks {
            guard let (name, path) = Self.pair(watermark) else { throw ValidationError("--watermark \(watermark) is not NAME=PATH") }
            do {
                loaded[name] = try ImageCodersManager.shared.decode(try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw ValidationError("--watermark \(name): cannot read \(path): \(error)")
            }
        }
        return loaded
    }

    /// `NAME=VALUE` split at its first `=`; `nil` when either side is empty.
    static func pair(_ text: String) -> (String, String)? {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    func run() async throws {
        var configuration = ImageServerConfiguration(
            cacheDirectory: location.directory.appendingPathComponent("server", isDirectory: true)
        )
        configuration.host = host
        configuration.port = port
        let signers = try self.signers
        configuration.additionalSigners = signers
        configuration.allowsUnsignedURLs = insecureUnsigned
        configuration.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        configuration.allowsPrivateSources = allowPrivateSources
        configuration.allowedSourceAddresses = Set(allowedAddresses)
        configuration.maxSourceBytes = maxSourceBytes.bytes
        configuration.maxSourcePixels = maxSourcePixels
        configuration.maxResultPixels = maxResultPixels
        configuration.maxOperations = maxOperations
        configuration.maxAnimationFrames = maxAnimationFrames
        configuration.maxAnimationPixels = maxAnimationPixels
        configuration.requestMemoryBudget = requestMemory.bytes
        configuration.maxSourceCacheBytes = maxSourceCache.bytes
        configuration.maxResultCacheBytes = maxResultCache.bytes
        configuration.sourceTimeout = timeout
        configuration.maxConcurrentRequests = concurrency
        configuration.maxConnections = maxConnections
        configuration.idleTimeout = idleTimeout
        configuration.metricsPort = metricsPort
        configuration.metricsHost = metricsHost
        configuration.resultMaxAge = maxAge
        configuration.memoryLimit = memoryLimit.bytes
        configuration.presets = try namedPresets
        configuration.onlyPresets = onlyPresets
        configuration.watermarks = try loadWatermarks()
        var samples: DemoImageServer?
        if demo {
            let started = try await DemoImageServer.start(count: demoSamples, largestSide: 1200)
            samples = started
            // The samples live on loopback: only their server is let through.
            configuration.allowsPrivateSources = true
            configuration.allowedHosts = allowedHosts.isEmpty ? ["127.0.0.1"] : configuration.allowedHosts
            configuration.homePage = ServerDemoPage.html(sources: started.urls, signer: signers.first)
        }
        let server = ImageServer(configuration: configuration)
        do {
            try await server.run(
                onRunning: { port in
                    FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
                },
                onMetricsRunning: { [metricsHost] port in
                    FileHandle.standardOutput.write(Data("metrics on http://\(metricsHost):\(port)/metrics\n".utf8))
                })
        } catch {
            try? await samples?.stop()
            throw error
        }
        try? await samples?.stop()
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
