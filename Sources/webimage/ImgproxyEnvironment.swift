#if Server
import ArgumentParser
import Foundation
import WebImage
import WebImageServer

/// imgproxy's `IMGPROXY_*` environment variables, read when `webimage serve` serves the
/// imgproxy dialect (`--dialect imgproxy`) and mapped onto the server's settings.
///
/// Every `IMGPROXY_*` variable set is accounted for: one this server maps is applied; one
/// that only tunes imgproxy's own process (its workers, its log, its listener) is named in a
/// warning and has no effect; any other — unknown, or a feature this server does not have
/// (local or cloud sources, a fallback image URL, …) — stops the server, naming it, so that
/// no setting an operator relies on is dropped without a word. A server setting given by
/// flag, `WEBIMAGE_*` or the `--config` file wins over the imgproxy variable that maps onto it.
struct ImgproxyEnvironment {
    /// The variables applied to the server's configuration.
    static let mapped: Set<String> = [
        "IMGPROXY_KEY", "IMGPROXY_SALT", "IMGPROXY_KEYS", "IMGPROXY_SALTS", "IMGPROXY_SIGNATURE_SIZE", "IMGPROXY_MAX_SRC_RESOLUTION",
        "IMGPROXY_MAX_SRC_FILE_SIZE", "IMGPROXY_MAX_ANIMATION_FRAMES", "IMGPROXY_TTL", "IMGPROXY_QUALITY", "IMGPROXY_FORMAT_QUALITY",
        "IMGPROXY_ENABLE_WEBP_DETECTION", "IMGPROXY_AUTO_WEBP", "IMGPROXY_ENFORCE_WEBP", "IMGPROXY_ENABLE_AVIF_DETECTION",
        "IMGPROXY_AUTO_AVIF", "IMGPROXY_ENFORCE_AVIF", "IMGPROXY_PRESETS", "IMGPROXY_ONLY_PRESETS", "IMGPROXY_ALLOWED_SOURCES",
        "IMGPROXY_BASE_URL", "IMGPROXY_TIMEOUT", "IMGPROXY_DOWNLOAD_TIMEOUT", "IMGPROXY_WATERMARK_PATH", "IMGPROXY_MAX_CLIENTS",
    ]

    /// The variables that tune imgproxy's own process and change no answer: warned about.
    static let ignored: Set<String> = [
        "IMGPROXY_BIND", "IMGPROXY_NETWORK", "IMGPROXY_WORKERS", "IMGPROXY_CONCURRENCY", "IMGPROXY_READ_REQUEST_TIMEOUT",
        "IMGPROXY_READ_TIMEOUT", "IMGPROXY_WRITE_RESPONSE_TIMEOUT", "IMGPROXY_WRITE_TIMEOUT", "IMGPROXY_KEEP_ALIVE_TIMEOUT",
        "IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT", "IMGPROXY_DOWNLOAD_BUFFER_SIZE", "IMGPROXY_FREE_MEMORY_INTERVAL",
        "IMGPROXY_LOG_FORMAT", "IMGPROXY_LOG_LEVEL", "IMGPROXY_USE_ETAG", "IMGPROXY_REQUESTS_QUEUE_SIZE", "IMGPROXY_GRACEFUL_STOP_TIMEOUT",
    ]

    /// One warning per variable that has no effect here.
    let warnings: [String]
    /// The imgproxy dialect's settings.
    let imgproxy: ImgproxyConfiguration
    /// `IMGPROXY_MAX_SRC_RESOLUTION`, in pixels.
    let maxSourcePixels: Int?
    /// `IMGPROXY_MAX_SRC_FILE_SIZE` when above 0.
    let maxSourceBytes: Int?
    /// `IMGPROXY_MAX_ANIMATION_FRAMES` when above 0.
    let maxAnimationFrames: Int?
    /// `IMGPROXY_TTL`.
    let resultMaxAge: Int?
    /// `IMGPROXY_TIMEOUT`.
    let requestTimeout: Double?
    /// `IMGPROXY_DOWNLOAD_TIMEOUT`.
    let sourceTimeout: Double?
    /// `IMGPROXY_MAX_CLIENTS`.
    let maxConnections: Int?
    /// The image of `IMGPROXY_WATERMARK_PATH`, decoded.
    let watermark: Image?

    /// Reads and checks `environment`'s `IMGPROXY_*` variables.
    ///
    /// - Throws: `ValidationError` naming an unknown or unsupported variable, or one whose
    ///   value does not read.
    init(_ environment: [String: String]) throws {
        let names = environment.keys.filter { $0.hasPrefix("IMGPROXY_") }.sorted()
        if let unknown = names.first(where: { !Self.mapped.contains($0) && !Self.ignored.contains($0) }) {
            throw ValidationError("\(unknown) is not supported by webimage serve (see the article Migrating from imgproxy)")
        }
        warnings = names.filter(Self.ignored.contains).map { "\($0) tunes imgproxy's own process and has no effect here" }
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        func list(_ name: String) -> [String] {
            value(name).map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } } ?? []
        }
        func integer(_ name: String) throws -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = Int(text) else { throw ValidationError("\(name) is not a whole number") }
            return number
        }
        func number(_ name: String) throws -> Double? {
            guard let text = value(name) else { return nil }
            guard let number = Double(text), number.isFinite, number >= 0 else { throw ValidationError("\(name) is not a number") }
            return number
        }
        func flag(_ name: String) throws -> Bool {
            guard let text = value(name) else { return false }
            switch text.lowercased() {
            case "1", "t", "true": return true
            case "0", "f", "false": return false
            default: throw ValidationError("\(name) is not true or false")
            }
        }
        func hex(_ name: String, _ texts: [String]) throws -> [[UInt8]] {
            try texts.map { text in
                guard let bytes = ServeCommand.hexBytes(text), !bytes.isEmpty else { throw ValidationError("\(name) is not hexadecimal") }
                return bytes
            }
        }

        var imgproxy = ImgproxyConfiguration()
        let keyNames = value("IMGPROXY_KEYS") != nil ? ("IMGPROXY_KEYS", "IMGPROXY_SALTS") : ("IMGPROXY_KEY", "IMGPROXY_SALT")
        imgproxy.keys = try hex(keyNames.0, list(keyNames.0))
        imgproxy.salts = try hex(keyNames.1, list(keyNames.1))
        guard imgproxy.keys.count == imgproxy.salts.count else {
            throw ValidationError("\(keyNames.0) and \(keyNames.1) must list as many keys as salts")
        }
        if let size = try integer("IMGPROXY_SIGNATURE_SIZE") {
            guard (1...32).contains(size) else { throw ValidationError("IMGPROXY_SIGNATURE_SIZE must be 1 to 32") }
            imgproxy.signatureSize = size
        }
        if let quality = try integer("IMGPROXY_QUALITY") {
            guard (1...100).contains(quality) else { throw ValidationError("IMGPROXY_QUALITY must be 1 to 100") }
            imgproxy.quality = quality
        }
        for item in list("IMGPROXY_FORMAT_QUALITY") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let format = ImageFormat(fileExtension: parts[0]), let quality = Int(parts[1]), (1...100).contains(quality)
            else { throw ValidationError("IMGPROXY_FORMAT_QUALITY \(item) is not FORMAT=QUALITY (1 to 100)") }
            imgproxy.formatQualities[format] = quality
        }
        let (webPDetection, autoWebP) = (try flag("IMGPROXY_ENABLE_WEBP_DETECTION"), try flag("IMGPROXY_AUTO_WEBP"))
        let (avifDetection, autoAVIF) = (try flag("IMGPROXY_ENABLE_AVIF_DETECTION"), try flag("IMGPROXY_AUTO_AVIF"))
        imgproxy.autoWebP = webPDetection || autoWebP
        imgproxy.enforceWebP = try flag("IMGPROXY_ENFORCE_WEBP")
        imgproxy.autoAVIF = avifDetection || autoAVIF
        imgproxy.enforceAVIF = try flag("IMGPROXY_ENFORCE_AVIF")
        for item in list("IMGPROXY_PRESETS") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("IMGPROXY_PRESETS \(item) is not NAME=OPTIONS") }
            imgproxy.presets[parts[0]] = parts[1]
        }
        imgproxy.onlyPresets = try flag("IMGPROXY_ONLY_PRESETS")
        imgproxy.allowedSources = list("IMGPROXY_ALLOWED_SOURCES")
        imgproxy.baseURL = value("IMGPROXY_BASE_URL") ?? ""
        self.imgproxy = imgproxy
        maxSourcePixels = try number("IMGPROXY_MAX_SRC_RESOLUTION").map { Int(min($0, 1e12) * 1_000_000) }
        maxSourceBytes = try integer("IMGPROXY_MAX_SRC_FILE_SIZE").flatMap { $0 > 0 ? $0 : nil }
        maxAnimationFrames = try integer("IMGPROXY_MAX_ANIMATION_FRAMES").flatMap { $0 > 0 ? $0 : nil }
        resultMaxAge = try integer("IMGPROXY_TTL").flatMap { $0 >= 0 ? $0 : nil }
        requestTimeout = try number("IMGPROXY_TIMEOUT").flatMap { $0 > 0 ? $0 : nil }
        sourceTimeout = try number("IMGPROXY_DOWNLOAD_TIMEOUT").flatMap { $0 > 0 ? $0 : nil }
        maxConnections = try integer("IMGPROXY_MAX_CLIENTS").flatMap { $0 > 0 ? $0 : nil }
        if let path = value("IMGPROXY_WATERMARK_PATH") {
            do {
                watermark = try ImageCodersManager.shared.decode(try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw ValidationError("IMGPROXY_WATERMARK_PATH: cannot read \(path): \(error)")
            }
        } else {
            watermark = nil
        }
    }

    /// Applies the variables to `configuration`, each server setting only where `settings`
    /// left it at its default.
    func apply(to configuration: inout ImageServerConfiguration, settings: ServerSettings) {
        func isDefault(_ setting: ServerSetting) -> Bool { settings.entry(setting).source == .defaults }
        configuration.imgproxy = imgproxy
        if let maxSourcePixels, isDefault(.maxSourcePixels) { configuration.maxSourcePixels = maxSourcePixels }
        if let maxSourceBytes, isDefault(.maxSourceBytes) { configuration.maxSourceBytes = maxSourceBytes }
        if let maxAnimationFrames, isDefault(.maxAnimationFrames) { configuration.maxAnimationFrames = maxAnimationFrames }
        if let resultMaxAge, isDefault(.maxAge) { configuration.resultMaxAge = resultMaxAge }
        if let requestTimeout, isDefault(.requestTimeout) { configuration.requestTimeout = requestTimeout }
        if let sourceTimeout, isDefault(.timeout) { configuration.sourceTimeout = sourceTimeout }
        if let maxConnections, isDefault(.maxConnections) { configuration.maxConnections = maxConnections }
        if let watermark { configuration.watermarks[ImgproxyConfiguration.watermarkName] = watermark }
    }
}
#endif
