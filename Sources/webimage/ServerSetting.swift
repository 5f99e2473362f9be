#if Server
import ArgumentParser
import Foundation
import WebImage
import WebImageServer

/// One setting of `webimage serve`, under one name in every source: the flag `--NAME`, the
/// environment variable `WEBIMAGE_` + NAME in capitals with `-` as `_`, and the key `NAME`
/// of the `--config` file (see ``ServerSettings`` for the order they are read in).
struct ServerSetting: Hashable, Sendable {
    /// What a setting's value is, and how its text is read.
    enum Kind: Hashable, Sendable {
        /// Any text but the empty one.
        case text
        /// A whole number.
        case integer
        /// A number of seconds, fractions allowed.
        case seconds
        /// A number of bytes, with an optional binary unit (see ``ByteSize``).
        case size
        /// On or off: `true`/`false`, `yes`/`no` or `1`/`0`.
        case flag
        /// Any number of non-empty texts: a repeated flag, an array in the file, or items
        /// separated by ``ServerSetting/environmentSeparator`` in the environment.
        case list

        /// What a message says of a value that is not of this kind.
        var complaint: String {
            switch self {
            case .text: "is not text"
            case .integer: "is not a whole number"
            case .seconds: "is not a number of seconds"
            case .size: "is not a size (bytes, or with a unit: 512K, 32M, 2G)"
            case .flag: "is not true or false"
            case .list: "is not a list of texts"
            }
        }
    }

    /// The name: the flag's long name and the file's key.
    let name: String
    /// What its value is.
    let kind: Kind
    /// The value when no source gives one, as text; `nil` leaves the setting unset.
    let defaultText: String?
    /// Whether the value is a secret, masked wherever it is shown.
    let isSecret: Bool

    /// A setting named `name`.
    init(_ name: String, _ kind: Kind, default defaultText: String? = nil, secret isSecret: Bool = false) {
        self.name = name
        self.kind = kind
        self.defaultText = defaultText
        self.isSecret = isSecret
    }

    /// The prefix of every environment variable of the server.
    static let environmentPrefix = "WEBIMAGE"

    /// What separates the items of a list in an environment variable (specs use `,` and `|`).
    static let environmentSeparator: Character = ";"

    /// The flag, `--NAME`.
    var flag: String { "--\(name)" }

    /// The environment variable, `WEBIMAGE_NAME`.
    var environmentVariable: String {
        Self.environmentPrefix + "_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// `ArgumentHelp` for the flag: `abstract` followed by the default, if any.
    func help(_ abstract: String, valueName: String? = nil) -> ArgumentHelp {
        var text = abstract
        if let defaultText {
            if text.hasSuffix(".") { text.removeLast() }
            text += " (default: \(defaultText))."
        }
        return ArgumentHelp(text + " [\(environmentVariable)]", valueName: valueName)
    }

    static let host = ServerSetting("host", .text, default: "127.0.0.1")
    static let port = ServerSetting("port", .integer, default: "8080")
    static let cacheDirectory = ServerSetting("cache-dir", .text, default: ImageCacheConfiguration.defaultDiskCacheDirectory.path)
    static let key = ServerSetting("key", .list, secret: true)
    static let salt = ServerSetting("salt", .list, secret: true)
    static let insecureUnsigned = ServerSetting("insecure-unsigned", .flag, default: "false")
    static let allowHost = ServerSetting("allow-host", .list)
    static let allowPrivateSources = ServerSetting("allow-private-sources", .flag, default: "false")
    static let allowAddress = ServerSetting("allow-address", .list)
    static let maxSourceBytes = ServerSetting("max-source-bytes", .size, default: "32M")
    static let maxSourcePixels = ServerSetting("max-source-pixels", .integer, default: "50000000")
    static let maxResultPixels = ServerSetting("max-result-pixels", .integer)
    static let maxOperations = ServerSetting("max-operations", .integer, default: "16")
    static let maxAnimationFrames = ServerSetting("max-animation-frames", .integer, default: "100")
    static let maxAnimationPixels = ServerSetting("max-animation-pixels", .integer, default: "500000000")
    static let requestMemory = ServerSetting("request-memory", .size, default: "1G")
    static let memoryBudget = ServerSetting("memory-budget", .size)
    static let memoryWait = ServerSetting("memory-wait", .seconds, default: "5")
    static let decodedSourceMemory = ServerSetting("decoded-source-memory", .size)
    static let decodedSourceLifetime = ServerSetting("decoded-source-lifetime", .seconds, default: "5")
    static let maxAspectRatio = ServerSetting("max-aspect-ratio", .integer, default: "200")
    static let requestTimeout = ServerSetting("request-timeout", .seconds, default: "10")
    static let maxFetches = ServerSetting("max-fetches", .integer, default: "32")
    static let maxFetchesPerHost = ServerSetting("max-fetches-per-host", .integer, default: "8")
    static let maxSourceCache = ServerSetting("max-source-cache", .size, default: "1G")
    static let maxResultCache = ServerSetting("max-result-cache", .size, default: "1G")
    static let timeout = ServerSetting("timeout", .seconds, default: "20")
    static let minSourceRate = ServerSetting("min-source-rate", .size, default: "16K")
    static let concurrency = ServerSetting("concurrency", .integer, default: "64")
    static let maxConnections = ServerSetting("max-connections", .integer, default: "1024")
    static let idleTimeout = ServerSetting("idle-timeout", .seconds, default: "10")
    static let writeTimeout = ServerSetting("write-timeout", .seconds, default: "30")
    static let metricsPort = ServerSetting("metrics-port", .integer)
    static let metricsHost = ServerSetting("metrics-host", .text, default: "127.0.0.1")
    static let maxAge = ServerSetting("max-age", .integer, default: "31536000")
    static let memoryLimit = ServerSetting("memory-limit", .size, default: "0")
    static let resultMemoryLimit = ServerSetting("result-memory-limit", .size, default: "32M")
    static let preset = ServerSetting("preset", .list)
    static let onlyPresets = ServerSetting("only-presets", .flag, default: "false")
    static let watermark = ServerSetting("watermark", .list)
    static let fallbackImage = ServerSetting("fallback-image", .text)
    static let fallbackStatus = ServerSetting("fallback-status", .integer, default: "200")
    static let fallbackMaxAge = ServerSetting("fallback-max-age", .integer, default: String(ImageServerFallback.defaultMaxAge))
    static let presetFallbackImage = ServerSetting("preset-fallback-image", .list)
    static let bestFormat = ServerSetting("best-format", .list)
    static let autoFormat = ServerSetting("auto-format", .list)
    static let decodeWorkerMemory = ServerSetting("decode-worker-memory", .size, default: "512M")
    static let decodeWorkerPool = ServerSetting("decode-worker-pool", .integer, default: "2")
    static let decodeWorkerFormat = ServerSetting("decode-worker-format", .list)
    static let demo = ServerSetting("demo", .flag, default: "false")
    static let dialect = ServerSetting("dialect", .list, default: "native")
    static let thumborConfig = ServerSetting("thumbor-config", .text)
    static let demoSamples = ServerSetting("demo-samples", .integer, default: "24")

    /// Every setting, in the order `--print-config` shows them.
    static let all: [ServerSetting] = [
        host, port, cacheDirectory, key, salt, insecureUnsigned, allowHost, allowPrivateSources, allowAddress,
        maxSourceBytes, maxSourcePixels, maxResultPixels, maxOperations, maxAnimationFrames, maxAnimationPixels,
        requestMemory, memoryBudget, memoryWait, decodedSourceMemory, decodedSourceLifetime, maxAspectRatio, requestTimeout, maxFetches, maxFetchesPerHost,
        maxSourceCache, maxResultCache, timeout, minSourceRate, concurrency, maxConnections, idleTimeout, writeTimeout,
        metricsPort, metricsHost, maxAge, memoryLimit, resultMemoryLimit, preset, onlyPresets, watermark,
        fallbackImage, fallbackStatus, fallbackMaxAge, presetFallbackImage, bestFormat, autoFormat, decodeWorkerMemory, decodeWorkerPool,
        decodeWorkerFormat, demo,
        demoSamples, dialect, thumborConfig,
    ]
}
#endif
