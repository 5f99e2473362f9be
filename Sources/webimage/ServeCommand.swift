#if Server
import ArgumentParser
import Foundation
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
            by /<spec>/<source> as sent; with --insecure-unsigned it may be '_'. Stops on SIGTERM \
            or SIGINT after finishing the requests in flight.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080

    @OptionGroup var location: CacheLocationOptions

    @Option(help: ArgumentHelp("The signing key, in hex (or the WEBIMAGE_KEY environment variable).", valueName: "hex"))
    var key: String?

    @Option(help: ArgumentHelp("The signing salt, in hex (or WEBIMAGE_SALT).", valueName: "hex"))
    var salt: String?

    @Flag(help: "Accept '_' as the signature (local use only).")
    var insecureUnsigned = false

    @Option(name: .customLong("allow-host"), help: ArgumentHelp("A host sources may come from (repeatable; default: any public host).", valueName: "host"))
    var allowedHosts: [String] = []

    @Flag(help: "Fetch sources on private, loopback and link-local addresses (tests and local use).")
    var allowPrivateSources = false

    @Option(help: ArgumentHelp("The most bytes a source may have.", valueName: "size"))
    var maxSourceBytes = ByteSize(argument: "32M")!

    @Option(help: "The most pixels a source may have.")
    var maxSourcePixels = 50_000_000

    @Option(help: ArgumentHelp("Seconds a source fetch may take.", valueName: "seconds"))
    var timeout = 20.0

    @Option(help: "Image requests worked on at once; more are answered 503 with Retry-After.")
    var concurrency = 64

    @Option(help: ArgumentHelp("The max-age of results' Cache-Control, in seconds.", valueName: "seconds"))
    var maxAge = 31_536_000

    @Option(help: ArgumentHelp("Decoded bytes the memory cache of sources keeps.", valueName: "size"))
    var memoryLimit = ByteSize(argument: "128M")!

    @Flag(help: "Serve the demo's sample images from loopback and a page of them through the server at /.")
    var demo = false

    func validate() throws {
        if keyBytes == nil, !insecureUnsigned {
            throw ValidationError("give --key (or WEBIMAGE_KEY), or --insecure-unsigned for local use")
        }
        if let key, Self.hexBytes(key) == nil { throw ValidationError("--key must be hexadecimal") }
        if let salt, Self.hexBytes(salt) == nil { throw ValidationError("--salt must be hexadecimal") }
        if concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0 to 65535") }
    }

    func run() async throws {
        var configuration = ImageServerConfiguration(
            cacheDirectory: location.directory.appendingPathComponent("server", isDirectory: true)
        )
        configuration.host = host
        configuration.port = port
        configuration.signingKey = keyBytes
        configuration.signingSalt = (salt ?? ProcessInfo.processInfo.environment["WEBIMAGE_SALT"]).flatMap(Self.hexBytes) ?? []
        configuration.allowsUnsignedURLs = insecureUnsigned
        configuration.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        configuration.allowsPrivateSources = allowPrivateSources
        configuration.maxSourceBytes = maxSourceBytes.bytes
        configuration.maxSourcePixels = maxSourcePixels
        configuration.sourceTimeout = timeout
        configuration.maxConcurrentRequests = concurrency
        configuration.resultMaxAge = maxAge
        configuration.memoryLimit = memoryLimit.bytes
        var samples: DemoImageServer?
        if demo {
            let started = try await DemoImageServer.start(count: 24, largestSide: 1200)
            samples = started
            // The samples live on loopback: only their server is let through.
            configuration.allowsPrivateSources = true
            configuration.allowedHosts = allowedHosts.isEmpty ? ["127.0.0.1"] : configuration.allowedHosts
            let signer = configuration.signingKey.map { ImageURLSigner(key: $0, salt: configuration.signingSalt) }
            configuration.homePage = ServerDemoPage.html(sources: started.urls, signer: signer)
        }
        let server = ImageServer(configuration: configuration)
        do {
            try await server.run { port in
                FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
            }
        } catch {
            try? await samples?.stop()
            throw error
        }
        try? await samples?.stop()
    }

    private var keyBytes: [UInt8]? {
        (key ?? ProcessInfo.processInfo.environment["WEBIMAGE_KEY"]).flatMap(Self.hexBytes)
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
