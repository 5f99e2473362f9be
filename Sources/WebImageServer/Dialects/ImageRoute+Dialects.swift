import Foundation
import HTTPTypes
import Hummingbird
import WebImage

extension ImageRoute {
    /// The native operations that take no argument, which a native spec may be alone.
    private static let bareOperations: Set<String> = [
        "raw", "attachment", "keep_copyright", "grayscale", "greyscale", "circle", "trim", "equalize",
    ]

    /// `request` read in the dialect its path is written in, its signature checked.
    ///
    /// With one dialect served, every path is read in it. thumbor's paths are told apart
    /// first (see ``isThumbor(_:)``). Between the native and imgproxy's, the segment after the
    /// signature decides: a native spec's operations hold `=` or `|` (or are one bare
    /// operation, such as `raw`); anything else — `name:arguments` options, `plain`, a
    /// base64url source, only-presets names — is imgproxy's.
    ///
    /// - Throws: ``ImageServerError`` as the dialect answers a bad path, signature or spec.
    func target(of request: Request) throws(ImageServerError) -> ImageRouteTarget {
        let path = request.uri.path
        if let thumbor, isThumbor(path) {
            let read = try thumbor.request(path: path, accept: request.headers[.accept])
            var watermarks: [String: URL] = [:]
            for (index, source) in read.watermarks.enumerated() { watermarks[ThumborPath.watermarkName(index)] = source }
            let spec = try ImageServerSpec(read.spec, presets: [:], onlyPresets: false, watermarks: Set(watermarks.keys))
            var target = ImageRouteTarget(source: read.source, spec: spec, negotiatesFormat: false, variesWithAccept: read.variesWithAccept)
            target.watermarkSources = watermarks
            return target
        }
        if let imgproxy, !configuration.dialects.contains(.native) || Self.isImgproxy(path) {
            let read = try imgproxy.request(path: path, accept: request.headers[.accept])
            let spec = try ImageServerSpec(read.spec, presets: [:], onlyPresets: false, watermarks: Set(configuration.watermarks.keys))
            return ImageRouteTarget(
                source: read.source, spec: spec, negotiatesFormat: false, variesWithAccept: read.variesWithAccept,
                answersSourceStatusAsImgproxy: true)
        }
        let parsed = try ImageServerRequest(path: path)
        try signatures.check(parsed.signature, signs: parsed.signedPath)
        let spec = try ImageServerSpec(
            parsed.spec, presets: configuration.presets, onlyPresets: configuration.onlyPresets,
            watermarks: Set(configuration.watermarks.keys))
        return ImageRouteTarget(source: parsed.source, spec: spec, negotiatesFormat: true, variesWithAccept: false)
    }

    /// Whether `path` is read as thumbor's, when thumbor's URLs are served: always when no
    /// other dialect is; otherwise when thumbor's own marks claim it
    /// (``ThumborPath/claims(_:)``), or when it is neither a native spec nor a path
    /// imgproxy reads (`/unsafe/example.com/a.jpg`: thumbor's URL of an image alone).
    private func isThumbor(_ path: String) -> Bool {
        let native = configuration.dialects.contains(.native)
        guard native || imgproxy != nil else { return true }
        if ThumborPath.claims(path) { return true }
        if native, !Self.isImgproxy(path) { return false }
        if let imgproxy, (try? ImgproxyPath(path: path, onlyPresets: imgproxy.configuration.onlyPresets)) != nil { return false }
        return true
    }

    /// Whether `path`'s segment after the signature is not a native spec.
    static func isImgproxy(_ path: String) -> Bool {
        let segments = path.drop { $0 == "/" }.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard segments.count > 1 else { return false }
        let segment = segments[1].removingPercentEncoding ?? String(segments[1])
        if segment.contains("=") || segment.contains("|") { return false }
        return !bareOperations.contains(segment.lowercased().trimmingWhitespace())
    }
}
