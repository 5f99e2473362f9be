#if Server
import ArgumentParser
import Foundation
import WebImage
import WebImageServer

/// thumbor's configuration file, read when `webimage serve` serves the thumbor dialect
/// (`--dialect thumbor`, the file given by `--thumbor-config`) and mapped onto the server's
/// settings.
///
/// Every key the file sets is accounted for: one this server maps is applied; one that
/// only tunes thumbor's own process, storage or logging is named in a warning and has no
/// effect; one whose feature this server does not have is accepted only at thumbor's
/// default value (which is what the server does) and otherwise stops the server, naming
/// it; any other key stops the server too. A server setting given by flag, `WEBIMAGE_*` or
/// the `--config` file wins over the thumbor key that maps onto it.
struct ThumborSettings {
    /// The keys applied to the server's configuration.
    static let mapped: Set<String> = [
        "SECURITY_KEY", "ALLOW_UNSAFE_URL", "QUALITY", "WEBP_QUALITY", "AVIF_QUALITY", "AUTO_WEBP", "MAX_WIDTH", "MAX_HEIGHT",
        "RESPECT_ORIENTATION", "MAX_PIXELS", "MAX_AGE", "HTTP_LOADER_REQUEST_TIMEOUT", "FILTERS",
    ]

    /// The keys of features this server does not have, each accepted at thumbor's default
    /// only (the value written as Python prints it).
    static let defaultsOnly: [String: String] = [
        "AUTO_AVIF": "False", "AUTO_JPG": "False", "AUTO_HEIF": "False", "AUTO_PNG": "False", "AUTO_PNG_TO_JPG": "False",
        "PRESERVE_EXIF_INFO": "False", "PRESERVE_EXIF_COPYRIGHT_INFO": "False", "PRESERVE_IPTC_INFO": "False", "USE_BLACKLIST": "False",
        "DETECTORS": "[]", "UPLOAD_ENABLED": "False", "USE_GIFSICLE_ENGINE": "False", "ALLOWED_SOURCES": "[]", "MIN_WIDTH": "1",
        "MIN_HEIGHT": "1", "STORES_CRYPTO_KEY_FOR_EACH_IMAGE": "False", "OPTIMIZERS": "[]",
        "URL_SIGNER": "'libthumbor.url_signers.base64_hmac_sha1'", "ENGINE": "'thumbor.engines.pil'",
        "LOADER": "'thumbor.loaders.http_loader'", "META_CALLBACK_NAME": "None", "HEIF_QUALITY": "None",
        "ACCESS_CONTROL_ALLOW_ORIGIN_HEADER": "False", "HTTP_LOADER_PROXY_HOST": "None", "HTTP_LOADER_PROXY_PORT": "None",
        "HTTP_LOADER_FORWARD_USER_AGENT": "False", "HTTP_LOADER_FORWARD_ALL_HEADERS": "False", "HTTP_LOADER_FORWARD_HEADERS_WHITELIST": "[]",
        "HTTP_LOADER_FOLLOW_REDIRECTS": "True", "ALLOW_ANIMATED_GIFS": "True", "IGNORE_SMART_ERRORS": "False",
    ]

    /// The keys that tune thumbor's own process, storage, logging or encoders' speed and
    /// change no answer's status, size or format: warned about.
    static let ignored: Set<String> = [
        "THUMBOR_LOG_CONFIG", "THUMBOR_LOG_FORMAT", "THUMBOR_LOG_DATE_FORMAT", "METRICS", "STORAGE", "RESULT_STORAGE",
        "FILE_STORAGE_ROOT_PATH", "RESULT_STORAGE_FILE_STORAGE_ROOT_PATH", "RESULT_STORAGE_EXPIRATION_SECONDS", "RESULT_STORAGE_STORES_UNSAFE",
        "STORAGE_EXPIRATION_SECONDS", "ENGINE_THREADPOOL_SIZE", "GC_INTERVAL", "STATSD_HOST", "STATSD_PORT", "STATSD_PREFIX",
        "PROGRESSIVE_JPEG", "PNG_COMPRESSION_LEVEL", "AVIF_SPEED", "AVIF_CODEC", "AVIF_CODEC_FALLBACK", "PILLOW_JPEG_SUBSAMPLING",
        "PILLOW_JPEG_QTABLES", "PILLOW_RESAMPLING_FILTER", "PILLOW_PRESERVE_INDEXED_MODE", "HTTP_LOADER_CONNECT_TIMEOUT",
        "HTTP_LOADER_MAX_REDIRECTS", "HTTP_LOADER_MAX_CLIENTS", "HTTP_LOADER_DEFAULT_USER_AGENT", "HTTP_LOADER_CURL_ASYNC_HTTP_CLIENT",
        "HTTP_LOADER_CURL_LOW_SPEED_TIME", "HTTP_LOADER_CURL_LOW_SPEED_LIMIT", "HTTP_LOADER_CA_CERTS", "HTTP_LOADER_VALIDATE_CERTS",
        "HTTP_LOADER_CLIENT_KEY", "HTTP_LOADER_CLIENT_CERT", "ENABLE_ETAGS", "MAX_WAIT_SECONDS_BEFORE_SERVER_SHUTDOWN",
        "MAX_WAIT_SECONDS_BEFORE_IO_SHUTDOWN", "NON_BLOCKING_SOCKETS", "USE_CUSTOM_ERROR_HANDLING", "ERROR_HANDLER_MODULE",
        "SENTRY_DSN_URL", "SENTRY_ENVIRONMENT", "ERROR_FILE_LOGGER", "ERROR_FILE_NAME_USE_CONTEXT", "HEALTHCHECK_ROUTE", "GIF_ENGINE",
        "FFMPEG_PATH", "JPEGTRAN_PATH", "JPEGTRAN_SCANS_FILE", "FACE_DETECTOR_CASCADE_FILE", "GLASSES_DETECTOR_CASCADE_FILE",
        "PROFILE_DETECTOR_CASCADE_FILE", "MIXED_STORAGE_FILE_STORAGE", "MIXED_STORAGE_CRYPTO_STORAGE", "MIXED_STORAGE_DETECTOR_STORAGE",
        "APP_CLASS", "HANDLER_LISTS", "SEND_IF_MODIFIED_LAST_MODIFIED_HEADERS", "MAX_AGE_TEMP_IMAGE", "SRGB_PROFILE",
        "FILE_LOADER_ROOT_PATH", "MAX_ID_LENGTH", "SVG_DPI",
    ]

    /// thumbor's key when its configuration sets none.
    static let defaultSecurityKey = "MY_SECURE_KEY"

    /// One warning per key that has no effect here, or whose default differs.
    let warnings: [String]
    /// The thumbor dialect's settings.
    let thumbor: ThumborConfiguration
    /// `MAX_PIXELS`.
    let maxSourcePixels: Int?
    /// `MAX_AGE`.
    let resultMaxAge: Int?
    /// `HTTP_LOADER_REQUEST_TIMEOUT`.
    let sourceTimeout: Double?

    /// Reads and checks the configuration file at `path`; `nil` reads none (thumbor's
    /// defaults).
    ///
    /// - Throws: `ValidationError` naming an unknown or unsupported key, or one whose value
    ///   does not read.
    init(path: String?) throws {
        let file: ThumborConfigurationFile
        if let path {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read the thumbor configuration \(path): \(error.localizedDescription)")
            }
            file = try ThumborConfigurationFile(text)
        } else {
            file = try ThumborConfigurationFile("")
        }
        try self.init(file)
    }

    /// Maps `file`'s keys.
    ///
    /// - Throws: `ValidationError` naming an unknown or unsupported key, or one whose value
    ///   does not read.
    init(_ file: ThumborConfigurationFile) throws {
        var warnings: [String] = []
        for key in file.keys where !Self.mapped.contains(key) && !Self.ignored.contains(key) {
            guard let expected = Self.defaultsOnly[key] else {
                throw ValidationError("\(key) is not a thumbor setting webimage serve knows (see the article Migrating from thumbor)")
            }
            guard file.values[key]?.text == expected else {
                throw ValidationError("\(key) = \(file.values[key]?.text ?? "") is not supported by webimage serve; only thumbor's default \(expected) is")
            }
        }
        for key in file.keys where Self.ignored.contains(key) {
            warnings.append("\(key) tunes thumbor's own process and has no effect here")
        }
        func number(_ key: String) throws -> Double? {
            switch file.values[key] {
            case nil, .none?: return nil
            case .number(let value)?: return value
            default: throw ValidationError("\(key) is not a number")
            }
        }
        func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let value = try number(key) else { return nil }
            guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
                throw ValidationError("\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return Int(value)
        }
        func flag(_ key: String) throws -> Bool? {
            switch file.values[key] {
            case nil: return nil
            case .bool(let value)?: return value
            default: throw ValidationError("\(key) is not True or False")
            }
        }
        var thumbor = ThumborConfiguration()
        switch file.values["SECURITY_KEY"] {
        case .string(let key)?:
            guard !key.isEmpty else { throw ValidationError("SECURITY_KEY is empty") }
            thumbor.securityKey = Array(key.utf8)
        case nil:
            thumbor.securityKey = Array(Self.defaultSecurityKey.utf8)
            warnings.append("SECURITY_KEY is not set: URLs are checked against thumbor's default key \(Self.defaultSecurityKey), as thumbor does")
        default: throw ValidationError("SECURITY_KEY is not a string")
        }
        thumbor.allowsUnsafeURLs = try flag("ALLOW_UNSAFE_URL") ?? thumbor.allowsUnsafeURLs
        thumbor.quality = try integer("QUALITY", in: 1...100) ?? thumbor.quality
        thumbor.webPQuality = try integer("WEBP_QUALITY", in: 1...100)
        thumbor.avifQuality = try integer("AVIF_QUALITY", in: 1...100)
        thumbor.autoWebP = try flag("AUTO_WEBP") ?? false
        thumbor.maxWidth = try integer("MAX_WIDTH", in: 0...Int(Int32.max)) ?? 0
        thumbor.maxHeight = try integer("MAX_HEIGHT", in: 0...Int(Int32.max)) ?? 0
        if try flag("RESPECT_ORIENTATION") != true {
            warnings.append("RESPECT_ORIENTATION is False in thumbor by default: sources with an EXIF orientation are turned upright here all the same")
        }
        switch file.values["FILTERS"] {
        case nil: break
        case .list(let items)?:
            thumbor.filters = try Set(
                items.map { item in
                    guard case .string(let module) = item else { throw ValidationError("FILTERS is not a list of module names") }
                    return String(module.split(separator: ".").last ?? "")
                })
        default: throw ValidationError("FILTERS is not a list of module names")
        }
        self.thumbor = thumbor
        self.warnings = warnings
        maxSourcePixels = try number("MAX_PIXELS").map { Int(min(max($0, 1), 1e15)) }
        resultMaxAge = try integer("MAX_AGE", in: 0...Int(Int32.max))
        sourceTimeout = try number("HTTP_LOADER_REQUEST_TIMEOUT").flatMap { $0 > 0 ? $0 : nil }
    }

    /// Applies the keys to `configuration`, each server setting only where `settings` left
    /// it at its default.
    func apply(to configuration: inout ImageServerConfiguration, settings: ServerSettings) {
        func isDefault(_ setting: ServerSetting) -> Bool { settings.entry(setting).source == .defaults }
        configuration.thumbor = thumbor
        if let maxSourcePixels, isDefault(.maxSourcePixels) { configuration.maxSourcePixels = maxSourcePixels }
        if let resultMaxAge, isDefault(.maxAge) { configuration.resultMaxAge = resultMaxAge }
        if let sourceTimeout, isDefault(.timeout) { configuration.sourceTimeout = sourceTimeout }
    }
}
#endif
