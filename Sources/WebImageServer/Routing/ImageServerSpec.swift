import Foundation
import WebImage

/// The server's own operations taken out of a request's spec before the rest is read as a
/// `TransformSpec`: `preset=NAME` (expanded in place from the configured presets),
/// `dpr=N` (a device pixel ratio from 1 to 5), `expires=UNIX_TIME` (a signed deadline),
/// `watermark=NAME[,GRAVITY[,OPACITY]][,x=X][,y=Y][,scale=S][,tile=T]` (a configured
/// watermark, or one a dialect fetches, read as an overlay), and
/// the response options, which change no pixel: `filename=NAME` and `attachment` (the
/// answer's `Content-Disposition`) and `cachebuster=TOKEN` (part of the result's cache key);
/// `keep_copyright`, which keeps the source's authorship in the result's metadata; and `raw`,
/// the source's bytes answered untouched.
struct ImageServerSpec: Sendable, Equatable {
    /// The operations left for `TransformSpec`, presets expanded.
    let operations: String
    /// The device pixel ratio the spec asks for (1 when it names none).
    let devicePixelRatio: Double
    /// When the URL stops being served, in seconds since 1970; `nil` for never.
    let expires: Int?
    /// The answer's `Content-Disposition`; `nil` when the spec names neither `filename=`
    /// nor `attachment`.
    let disposition: ContentDisposition?
    /// The token of `cachebuster=`, which makes a result of its own in the result cache
    /// and changes nothing else; `nil` for none.
    let cacheBuster: String?
    /// The presets the spec names, in its order.
    let presetNames: [String]
    /// Whether the spec is `raw`: the source answered as it came, with nothing but
    /// `expires=`, `filename=` and `attachment` beside it.
    let isRaw: Bool
    /// Whether the result keeps the source's EXIF `Copyright` and `Artist` and XMP
    /// `dc:rights` (`keep_copyright`) while the rest of its metadata is stripped.
    let keepsCopyright: Bool

    /// The largest device pixel ratio a spec may ask for.
    static let maximumDevicePixelRatio = 5.0

    /// Reads the server's operations out of `text`.
    ///
    /// - Parameters:
    ///   - presets: The named specs `preset=NAME` expands to.
    ///   - onlyPresets: Whether a spec may hold nothing but `preset=`, `expires=`,
    ///     `filename=` and `attachment`.
    ///   - watermarks: The names `watermark=` may draw: the configured watermarks, or
    ///     those the dialect fetches for this request.
    /// - Throws: ``ImageServerError`` 400 for an unknown preset, a bad or repeated `dpr=`,
    ///   `expires=`, `filename=`, `attachment`, `cachebuster=`, `keep_copyright` or `raw`, for `raw` beside
    ///   anything but `expires=`, `filename=` and `attachment`, and, in only-presets mode,
    ///   any operation but `expires=`, `filename=` and `attachment`.
    init(_ text: String, presets: [String: String], onlyPresets: Bool, watermarks: Set<String> = []) throws(ImageServerError) {
        // The request's own operations, each preset replaced by its operations.
        var expanded: [String] = []
        var presetNames: [String] = []
        for operation in Self.split(text) {
            guard operation.name == "preset" else {
                guard !onlyPresets || ["expires", "filename", "attachment"].contains(operation.name) else { throw Self.presetsOnly }
                expanded.append(operation.text)
                continue
            }
            guard let preset = presets[operation.argument] else {
                throw ImageServerError(.badRequest, "bad spec: preset: there is no preset by that name")
            }
            for inner in Self.split(preset) where inner.name == "preset" {
                throw ImageServerError(.badRequest, "bad spec: preset: a preset may not name another", detail: inner.text)
            }
            expanded.append(preset)
            presetNames.append(operation.argument)
        }
        var kept: [String] = []
        var ratio: Double?
        var expires: Int?
        var filename: String?
        var isAttachment = false
        var cacheBuster: String?
        var isRaw = false
        var keepsCopyright = false
        for operation in Self.split(expanded.joined(separator: "|")) {
            switch operation.name {
            case "keep_copyright":
                guard !keepsCopyright else { throw ImageServerError(.badRequest, "bad spec: keep_copyright may appear only once") }
                guard operation.text.lowercased() == "keep_copyright" else {
                    throw ImageServerError(.badRequest, "bad spec: keep_copyright takes no argument")
                }
                keepsCopyright = true
            case "raw":
                guard !isRaw else { throw ImageServerError(.badRequest, "bad spec: raw may appear only once") }
                guard operation.text.lowercased() == "raw" else { throw ImageServerError(.badRequest, "bad spec: raw takes no argument") }
                isRaw = true
            case "filename":
                guard filename == nil else { throw ImageServerError(.badRequest, "bad spec: filename= may appear only once") }
                guard !operation.argument.isEmpty else { throw ImageServerError(.badRequest, "bad spec: filename: expected a name") }
                filename = operation.argument
            case "attachment":
                guard !isAttachment else { throw ImageServerError(.badRequest, "bad spec: attachment may appear only once") }
                guard operation.text.lowercased() == "attachment" else {
                    throw ImageServerError(.badRequest, "bad spec: attachment takes no argument")
                }
                isAttachment = true
            case "cachebuster":
                guard cacheBuster == nil else { throw ImageServerError(.badRequest, "bad spec: cachebuster= may appear only once") }
                guard Self.isCacheBuster(operation.argument) else {
                    throw ImageServerError(
                        .badRequest,
                        "bad spec: cachebuster: expected 1 to \(Self.maximumCacheBusterLength) letters, digits, '-', '.', '_' or '~'")
                }
                cacheBuster = operation.argument
            case "expires":
                guard expires == nil else { throw ImageServerError(.badRequest, "bad spec: expires= may appear only once") }
                guard let time = Int(operation.argument), time >= 0 else {
                    throw ImageServerError(.badRequest, "bad spec: expires: expected a time in seconds since 1970")
                }
                expires = time
            case "dpr":
                guard ratio == nil else { throw ImageServerError(.badRequest, "bad spec: dpr= may appear only once") }
                guard let value = Double(operation.argument), value.isFinite, (1...Self.maximumDevicePixelRatio).contains(value) else {
                    throw ImageServerError(.badRequest, "bad spec: dpr: expected a number from 1 to 5")
                }
                ratio = value
            case "watermark":
                let arguments = operation.argument.split(separator: ",", omittingEmptySubsequences: false).map {
                    $0.trimmingWhitespace()
                }
                let positional = arguments.prefix { !$0.contains("=") }
                let options = arguments.dropFirst(positional.count)
                guard let name = positional.first, watermarks.contains(name) else {
                    throw ImageServerError(.badRequest, "bad spec: watermark: there is no watermark by that name")
                }
                guard positional.count <= 3,
                    options.allSatisfy({ Self.watermarkOptions.contains($0.prefix { $0 != "=" }.lowercased()) })
                else {
                    throw ImageServerError(.badRequest, "bad spec: watermark takes NAME[,GRAVITY[,OPACITY]][,x=X][,y=Y][,scale=S][,tile=T]")
                }
                var overlay = ["overlay=\(name)", positional.count > 1 ? positional[1] : "bottomright"]
                if positional.count > 2 { overlay.append("opacity=\(positional[2])") }
                kept.append((overlay + options).joined(separator: ","))
            case "overlay":
                throw ImageServerError(.badRequest, "bad spec: overlay: not served; name a configured watermark with watermark=")
            default:
                kept.append(operation.text)
            }
        }
        if isRaw {
            // The source goes out untouched: an operation beside it would do nothing.
            guard kept.isEmpty, ratio == nil, cacheBuster == nil, !keepsCopyright else {
                throw ImageServerError(.badRequest, "bad spec: raw takes nothing beside it but expires=, filename= and attachment")
            }
        } else if kept.isEmpty {
            throw ImageServerError(.badRequest, "bad spec: it names no operation")
        }
        operations = kept.joined(separator: "|")
        devicePixelRatio = ratio ?? 1
        self.expires = expires
        disposition = filename != nil || isAttachment ? try ContentDisposition(filename: filename, isAttachment: isAttachment) : nil
        self.cacheBuster = cacheBuster
        self.presetNames = presetNames
        self.isRaw = isRaw
        self.keepsCopyright = keepsCopyright
    }

    /// The options `watermark=` takes after its name, gravity and opacity: the offsets, the
    /// size against the image and the copies (see the native `overlay` operation).
    private static let watermarkOptions: Set<String> = ["x", "y", "scale", "tile"]

    /// The longest token `cachebuster=` accepts.
    static let maximumCacheBusterLength = 64

    /// Whether `token` is 1 to ``maximumCacheBusterLength`` ASCII letters, digits, `-`,
    /// `.`, `_` or `~`.
    private static func isCacheBuster(_ token: String) -> Bool {
        (1...maximumCacheBusterLength).contains(token.count)
            && token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) }
    }

    /// The operations of `text`, trimmed, with their lowercased names and arguments.
    private static func split(_ text: String) -> [(text: String, name: String, argument: String)] {
        text.split(separator: "|", omittingEmptySubsequences: false).map { operation in
            let trimmed = operation.trimmingWhitespace()
            let parts = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (trimmed, parts[0].lowercased(), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    private static let presetsOnly = ImageServerError(.badRequest, "bad spec: this server accepts only preset=NAME")

    /// `spec` with every size multiplied by the device pixel ratio, capped so that no
    /// rectangle the spec names exceeds `maxPixels` (nor a side
    /// `TransformSpec.maximumDimension`); a spec already over the cap is left as it is,
    /// for the budget to refuse.
    ///
    /// - Returns: The spec and the ratio applied.
    func applyingDevicePixelRatio(to spec: TransformSpec, maxPixels: Int) -> (TransformSpec, Double) {
        guard devicePixelRatio > 1 else { return (spec, 1) }
        var factor = devicePixelRatio
        if let named = spec.largestNamedPixelCount, named > 0 {
            factor = min(factor, (Double(maxPixels) / Double(named)).squareRoot())
        }
        factor = max(1, factor)
        var scaled = spec.multiplyingSizes(by: factor)
        // Sides round to whole pixels: step down until the rounding fits too.
        while factor > 1, let named = scaled.largestNamedPixelCount, named > maxPixels {
            factor = max(1, factor - 0.01)
            scaled = spec.multiplyingSizes(by: factor)
        }
        return (scaled, factor)
    }
}
