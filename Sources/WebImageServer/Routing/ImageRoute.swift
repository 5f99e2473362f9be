import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WebImage

/// The image route, `/<signature>/<spec>/<source>` (or imgproxy's form, see
/// ``target(of:)``): the request checked (signature, spec,
/// expiry, budget, source host), then its result answered from the ``ResultCache`` or made
/// by fetching the source (``SourceFetches``) and running the transform
/// (``TransformRun``); a fallback image answers for a source that fails, when one is set.
/// `raw` answers the source's own bytes.
///
/// Room Routing/: a request path taken apart and answered — the image and info routes, the spec's server operations, fallbacks and info answers.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
struct ImageRoute: Sendable {
    let configuration: ImageServerConfiguration
    let signatures: URLSignatures
    /// imgproxy's URLs, when the server answers them (``ImageServerConfiguration/dialects``).
    let imgproxy: ImgproxyDialect?
    /// thumbor's URLs, when the server answers them.
    let thumbor: ThumborDialect?
    let policy: SourceAddressPolicy
    let budget: TransformBudget
    let fetches: SourceFetches
    let sources: CachedSources
    let transforms: TransformRun
    let results: ResultCache
    let slots: TransformSlots
    /// The process-wide memory budget, which a `raw` body is counted in.
    let memory: MemoryAdmission
    let deadline: RequestDeadline
    let metrics: ImageServerMetrics

    /// The answer to an image request; when a fallback answers it, the source's failure is
    /// noted in `context` for the access log.
    func respond(to request: Request, context: ImageServerRequestContext) async throws(ImageServerError) -> Response {
        let target = try target(of: request)
        let serverSpec = target.spec
        if let expires = serverSpec.expires, Date().timeIntervalSince1970 >= Double(expires) {
            throw ImageServerError(.gone, "this URL has expired")
        }
        if serverSpec.isRaw {
            do throws(ImageServerError) {
                return try await raw(target.source, spec: serverSpec, request: request)
            } catch {
                throw target.answersSourceStatusAsImgproxy ? error.answeringSourceStatusAsImgproxy : error
            }
        }
        let choice = OutputFormatChoice(
            spec: serverSpec.operations, accept: target.negotiatesFormat ? request.headers[.accept] : nil, coders: sources.coders,
            bestFormats: configuration.bestFormats, autoFormats: configuration.autoFormats)
        let written: TransformSpec
        do {
            let (watermarks, fetched) = (configuration.watermarks, target.watermarkSources)
            written = try TransformSpec(choice.spec) { name in
                // A fetched watermark stands in until it is fetched, within the result's work.
                if fetched[name] != nil { return Self.watermarkStandIn }
                guard let watermark = watermarks[name] else { throw ImageServerError(.badRequest, "no such watermark") }
                return watermark
            }
        } catch {
            throw ImageServerError(.badRequest, "bad spec: \(error)")
        }
        let (spec, ratio) = serverSpec.applyingDevicePixelRatio(to: written, maxPixels: budget.maxPixels)
        try budget.check(spec, operationCount: choice.spec.split(separator: "|").count)
        try policy.checkHost(of: target.source)
        let watermarkSources = target.watermarkSources.sorted { $0.key < $1.key }
        for (_, watermark) in watermarkSources { try policy.checkHost(of: watermark) }
        let key =
            "\(choice.spec)\ndpr=\(ratio)\n\(target.source.absoluteString)" + (serverSpec.cacheBuster.map { "\ncachebuster=\($0)" } ?? "")
            + watermarkSources.map { "\nwatermark \($0.key)=\($0.value.absoluteString)" }.joined()
            + (serverSpec.keepsCopyright ? "\nkeep_copyright" : "")
            + (choice.bestCandidates.map { "\nbest=" + $0.map(\.rawValue).joined(separator: ",") } ?? "")
        var result: ResultCache.Entry
        var status = HTTPResponse.Status.ok
        var maxAge = configuration.resultMaxAge
        do throws(ImageServerError) {
            let (fetches, transforms, source, watermarks) = (self.fetches, self.transforms, target.source, target.watermarkSources)
            let output = OutputRequest(bestCandidates: choice.bestCandidates, keepsCopyright: serverSpec.keepsCopyright)
            result = try await results.result(forKey: key) { () throws(ImageServerError) in
                // The host was checked against the allow-list; its addresses are checked
                // where the downloader connects, for the first URL and every redirect
                // (``SourceAddressPolicy``). The source's bytes go to the disk cache once
                // (concurrent requests share the transfer); each result then decodes them
                // at the size its spec needs.
                try await transforms.asking(for: source, by: spec) { () throws(ImageServerError) in
                    try await fetches.fetch(source)
                    for (_, watermark) in watermarkSources { try await Self.fetchWatermark(watermark, through: fetches) }
                    return try await transforms.run(source, watermarks: watermarks, spec: spec, output: output)
                }
            }
        } catch {
            guard error.allowsFallback, let fallback = fallback(for: serverSpec) else {
                throw target.answersSourceStatusAsImgproxy ? error.answeringSourceStatusAsImgproxy : error
            }
            // The failure is still logged and counted; the client sees the fallback, made
            // by the same spec and kept apart from every source's results.
            context.fallbackFailure.withLockedValue { $0 = error }
            metrics.recordFallback(failure: Int(error.status.code))
            let fallbackKey =
                "fallback=\(fallback.digest)\n\(choice.spec)\ndpr=\(ratio)"
                + (choice.bestCandidates.map { "\nbest=" + $0.map(\.rawValue).joined(separator: ",") } ?? "")
            let (transforms, bestCandidates) = (self.transforms, choice.bestCandidates)
            result = try await results.result(forKey: fallbackKey) { () throws(ImageServerError) in
                try await transforms.run(fallback, spec: spec, bestCandidates: bestCandidates)
            }
            status = HTTPResponse.Status(code: fallback.status)
            maxAge = fallback.maxAge
        }
        let eTag = result.metadata.entityTag ?? ""
        var headers = HTTPFields()
        headers[.eTag] = eTag
        headers[.cacheControl] = ResultCache.cacheControl(maxAge: maxAge, expires: serverSpec.expires, now: Date())
        if (choice.variesWithAccept && target.negotiatesFormat) || target.variesWithAccept { headers[.vary] = "Accept" }
        if status == .ok, let ifNoneMatch = request.headers[.ifNoneMatch], ResultCache.matches(ifNoneMatch, eTag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = result.metadata.contentType ?? "application/octet-stream"
        headers[.contentLength] = String(result.body.count)
        if let disposition = serverSpec.disposition {
            let format = ImageFormat.allCases.first { $0.mimeType == result.metadata.contentType } ?? .undefined
            headers[.contentDisposition] = disposition.headerValue(for: format)
        }
        let body = request.method == .head ? ResponseBody() : result.body.responseBody
        return Response(status: status, headers: headers, body: body)
    }

    /// What a fetched watermark draws until it is fetched: one clear pixel, so that the spec
    /// can be read and checked before any fetch.
    private static let watermarkStandIn = Image(bitmap: Bitmap(width: 1, height: 1, pixels: [0, 0, 0, 0]))

    /// Brings a watermark's image into the source cache as a source is brought (the same
    /// address policy, limits, deadline and shared fetches). A watermark whose host answers
    /// a failing status is the request's fault, 400, as thumbor answers it; any other
    /// failure is answered as the source's would be (403 for an address not allowed, 502,
    /// 504). Either way no fallback answers for it.
    private static func fetchWatermark(_ watermark: URL, through fetches: SourceFetches) async throws(ImageServerError) {
        do throws(ImageServerError) {
            try await fetches.fetch(watermark)
        } catch {
            var failure =
                error.sourceStatus.map { ImageServerError(.badRequest, "watermark not found", detail: "the watermark's source answered \($0)") }
                ?? error
            failure.allowsFallback = false
            throw failure
        }
    }

    /// The fallback answered for a request whose source fails: that of the first preset the
    /// spec names that has one, else the server's; `nil` for none.
    private func fallback(for spec: ImageServerSpec) -> ImageServerFallback? {
        spec.presetNames.lazy.compactMap { configuration.presetFallbacks[$0] }.first ?? configuration.fallback
    }

    /// `raw`: the source's bytes answered as they came, under every rule a transform's
    /// source is held to — the allow-list and the address policy at every hop, the byte
    /// limit, and a header the coders read within the pixel, frame and aspect limits — with
    /// the type its bytes are, not the one the source claimed. An SVG is never answered raw:
    /// it may carry script, which the server's origin must not serve.
    ///
    /// The bytes are counted in the memory budget before they are read (as the most a
    /// source may be, then as the bytes read, with their copy in the body) and stay counted
    /// until the body is written or dropped.
    private func raw(_ source: URL, spec: ImageServerSpec, request: Request) async throws(ImageServerError) -> Response {
        try policy.checkHost(of: source)
        let (fetches, sources, slots, memory) = (self.fetches, self.sources, self.slots, self.memory)
        let limits = sources.limited(ImageDecodeOptions())
        let maxSourceBytes = configuration.maxSourceBytes
        let (data, digest, hold) = try await deadline.run { () throws(ImageServerError) -> (Data, String, MemoryHold) in
            try await fetches.fetch(source)
            return try await slots.withSlot { () throws(ImageServerError) -> (Data, String, MemoryHold) in
                // The bytes read and their copy in the response body, at most twice the
                // largest source until the read says how many.
                try await memory.admit(2 * maxSourceBytes)
                let hold = MemoryHold(2 * maxSourceBytes, of: memory)
                let (data, _) = try await sources.header(of: source, options: limits)
                hold.keep(2 * data.count)
                let digest = try await BlockingIO.run { () throws(ImageServerError) in ResultCache.digest(of: data) }
                return (data, digest, hold)
            }
        }
        let format = ImageFormat(sniffing: data)
        guard format != .svg, let contentType = format.mimeType else {
            throw ImageServerError(
                .unprocessableContent, "source not served raw", detail: "a source of format \(format.rawValue) is not answered raw")
        }
        var headers = HTTPFields()
        headers[.eTag] = "\"\(digest)\""
        headers[.cacheControl] = ResultCache.cacheControl(maxAge: configuration.resultMaxAge, expires: spec.expires, now: Date())
        if let ifNoneMatch = request.headers[.ifNoneMatch], ResultCache.matches(ifNoneMatch, "\"\(digest)\"") {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        headers[.contentLength] = String(data.count)
        if let disposition = spec.disposition { headers[.contentDisposition] = disposition.headerValue(for: format) }
        guard request.method != .head else { return Response(status: .ok, headers: headers) }
        let buffer = ByteBuffer(bytes: data)
        let body = ResponseBody(contentLength: buffer.readableBytes) { writer in
            defer { hold.release() }
            try await writer.write(buffer)
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
