import Foundation

/// Reads imgproxy's URLs into the server's own spec: the signature checked as imgproxy
/// checks it, the options applied over imgproxy's defaults and presets, the source decoded
/// and held to `IMGPROXY_ALLOWED_SOURCES` and `IMGPROXY_BASE_URL`.
struct ImgproxyDialect: Sendable {
    /// The dialect's settings.
    let configuration: ImgproxyConfiguration
    /// The presets, each read into its options once.
    let presets: [String: [ImgproxyPath.Option]]
    /// Whether the server has imgproxy's watermark loaded.
    let hasWatermark: Bool

    /// A request read: the native spec, the source, and whether the answer varies with
    /// `Accept`.
    struct Request: Sendable, Equatable {
        /// The server's own spec the options become.
        let spec: String
        /// The source URL.
        let source: URL
        /// Whether WebP or AVIF detection made the answer depend on `Accept`.
        let variesWithAccept: Bool
    }

    /// The dialect for `configuration`, its presets read.
    ///
    /// - Throws: ``ImageServerConfigurationError`` when a preset is not options.
    init(_ configuration: ImgproxyConfiguration, hasWatermark: Bool) throws(ImageServerConfigurationError) {
        self.configuration = configuration
        self.hasWatermark = hasWatermark
        var presets: [String: [ImgproxyPath.Option]] = [:]
        for (name, text) in configuration.presets {
            var options: [ImgproxyPath.Option] = []
            for segment in text.split(separator: "/") {
                let pieces = segment.split(separator: ":", omittingEmptySubsequences: false)
                guard pieces.count > 1 else { throw .badImgproxyPreset(name) }
                options.append(ImgproxyPath.Option(name: String(pieces[0]), arguments: pieces.dropFirst().map(String.init)))
            }
            presets[name] = options
        }
        self.presets = presets
    }

    /// Reads `path` (raw, without the query) for a client that sent `accept`.
    ///
    /// - Throws: ``ImageServerError`` 403 for a bad signature; 404 for a URL or option
    ///   imgproxy would not read (an unknown option or preset, a bad argument, an expired
    ///   URL, a source off the allowed prefixes); 400 for an option the server does not
    ///   serve yet.
    func request(path: String, accept: String?) throws(ImageServerError) -> Request {
        // The signature is checked before anything else is read, as imgproxy does.
        if let (signature, signedPath) = ImgproxyPath.signature(of: path) { try checkSignature(signature, signs: signedPath) }
        let parsed = try ImgproxyPath(path: path, onlyPresets: configuration.onlyPresets)
        var options = ImgproxyOptions()
        if presets["default"] != nil {
            try options.apply(ImgproxyPath.Option(name: "preset", arguments: ["default"]), presets: presets)
        }
        for option in parsed.options { try options.apply(option, presets: presets) }
        if let fileExtension = parsed.fileExtension { try options.applyExtension(fileExtension) }
        var sourceText = parsed.source
        if !configuration.baseURL.isEmpty, !sourceText.hasPrefix(configuration.baseURL) { sourceText = configuration.baseURL + sourceText }
        guard configuration.allowedSources.isEmpty || configuration.allowedSources.contains(where: { sourceText.hasPrefix($0) }) else {
            throw ImageServerError(.notFound, "invalid imgproxy URL: the source is not allowed (IMGPROXY_ALLOWED_SOURCES)")
        }
        guard let source = URL(string: sourceText), source.scheme != nil else {
            throw ImgproxyPath.invalid("the source is not a URL")
        }
        let (spec, varies) = try options.nativeSpec(configuration: configuration, accept: accept, hasWatermark: hasWatermark)
        return Request(spec: spec, source: source, variesWithAccept: varies)
    }

    /// Checks `signature` as imgproxy does: with no key any text passes; otherwise it must
    /// be the base64url (unpadded) HMAC-SHA256 of a salt and `signedPath` under the key of
    /// the same index, truncated to ``ImgproxyConfiguration/signatureSize`` bytes.
    ///
    /// - Throws: ``ImageServerError`` 403 when no pair signs it.
    func checkSignature(_ signature: String, signs signedPath: String) throws(ImageServerError) {
        guard !configuration.keys.isEmpty else { return }
        for (key, salt) in zip(configuration.keys, configuration.salts)
        where ImgproxySignature.matches(signature, key: key, salt: salt, path: signedPath, size: configuration.signatureSize) {
            return
        }
        throw ImageServerError(.forbidden, "invalid signature")
    }
}
