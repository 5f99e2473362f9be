import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import WebImage

/// Answers the image server's requests: `/health`, and
/// `/<signature>/<spec>/<source>` — the source fetched and cached through an
/// `ImageManager` (one transfer however many requests ask), transformed and encoded by
/// the spec, and the result kept in its own disk cache.
///
/// Blocking work (name resolution, disk reads and writes, decoding, transforming,
/// encoding) runs on NIO's blocking-I/O pool and the library's decoding workers, never on
/// an event loop.
struct ImageServerResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    /// A result's bytes and the metadata it is answered and cached with.
    typealias MadeResult = (data: Data, metadata: DiskCacheEntryMetadata)

    let configuration: ImageServerConfiguration
    let manager: ImageManager
    /// The cache of sources: their bytes are read from its disk to plan a source before
    /// anything is decoded, then decoded through it.
    let sources: ImageCache
    let results: any ImageDiskStorage
    /// The signers whose signatures are accepted: the configured key first, then the
    /// additional ones (key rotation).
    let signers: [ImageURLSigner]
    let policy: SourceAddressPolicy
    let budget: TransformBudget
    let memory: MemoryAdmission
    let coders: ImageCodersManager
    let sourceFetches: SourceFetches
    /// The results being made, by result key: identical requests that miss the result
    /// cache at the same time share one piece of work and its answer.
    let resultWork: SharedWork<String, MadeResult, ImageServerError>
    let metrics: ImageServerMetrics
    let slots: TransformSlots

    init(
        configuration: ImageServerConfiguration, manager: ImageManager, sources: ImageCache,
        results: any ImageDiskStorage, metrics: ImageServerMetrics, policy: SourceAddressPolicy
    ) {
        self.configuration = configuration
        self.metrics = metrics
        self.manager = manager
        self.sources = sources
        self.results = results
        signers =
            (configuration.signingKey.map { [ImageURLSigner(key: $0, salt: configuration.signingSalt)] } ?? [])
            + configuration.additionalSigners
        self.policy = policy
        budget = TransformBudget(configuration)
        slots = TransformSlots(maximum: configuration.maxConcurrentRequests)
        memory = MemoryAdmission(capacity: configuration.memoryBudget, wait: .seconds(configuration.memoryWait), metrics: metrics)
        coders = sources.coders
        sourceFetches = SourceFetches(
            manager: manager,
            limits: SourceFetchLimits(
                maximum: configuration.maxConcurrentFetches, maximumPerHost: configuration.maxFetchesPerHost, metrics: metrics),
            metrics: metrics)
        resultWork = SharedWork { metrics.recordResultWorkJoined() }
    }

    /// Answers `request`, then counts it and writes its access-log line: the client hears
    /// the class of a failure, the log keeps its detail.
    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        let (answered, failure) = await answer(request)
        var response = answered
        response.headers[.xContentTypeOptions] = "nosniff"
        let duration = ContinuousClock.now - start
        let bytes = response.headers[.contentLength].flatMap { Int($0) } ?? 0
        metrics.recordRequest(status: Int(response.status.code), duration: duration, bytes: bytes)
        // What comes from the request is escaped: a client must not break or forge a line.
        var metadata: Logger.Metadata = [
            "method": "\(AccessLogField.escaped(request.method.rawValue))",
            "path": "\(AccessLogField.escaped(request.uri.path))",
            "status": "\(response.status.code)",
            "ms": "\(String(format: "%.1f", Double(duration.nanoseconds) / 1e6))",
            "bytes": "\(bytes)",
        ]
        if let failure {
            metadata["error"] = "\(AccessLogField.escaped(failure.message))"
            if let detail = failure.detail { metadata["detail"] = "\(AccessLogField.escaped(detail))" }
        }
        context.logger.info("request", metadata: metadata)
        return response
    }

    /// The response to `request`, and the failure it reports, if any.
    private func answer(_ request: Request) async -> (Response, ImageServerError?) {
        guard request.method == .get || request.method == .head else {
            let error = ImageServerError(.methodNotAllowed, "only GET and HEAD are served")
            return (Self.refusal(error), error)
        }
        let path = request.uri.path
        if path == "/health" {
            return (Self.text("{\"status\":\"ok\"}\n", contentType: "application/json"), nil)
        }
        if path == "/", let page = configuration.homePage {
            return (Self.text(page, contentType: "text/html; charset=utf-8"), nil)
        }
        do throws(ImageServerError) {
            if path.hasPrefix("/info/") { return (try await info(for: request, path: path), nil) }
            return try await image(for: request, path: path)
        } catch {
            var response = Self.refusal(error)
            if error.status == .serviceUnavailable { response.headers[.retryAfter] = "1" }
            return (response, error)
        }
    }

    // MARK: Images

    /// The answer to an image request, and the source's failure when a fallback answered it.
    private func image(for request: Request, path: String) async throws(ImageServerError) -> (Response, ImageServerError?) {
        let parsed = try ImageServerRequest(path: path)
        try checkSignature(parsed)
        let serverSpec = try ImageServerSpec(
            parsed.spec, presets: configuration.presets, onlyPresets: configuration.onlyPresets,
            watermarks: Set(configuration.watermarks.keys))
        if let expires = serverSpec.expires, Date().timeIntervalSince1970 >= Double(expires) {
            throw ImageServerError(.gone, "this URL has expired")
        }
        if serverSpec.isRaw { return (try await raw(parsed.source, spec: serverSpec, request: request), nil) }
        let choice = OutputFormatChoice(
            spec: serverSpec.operations, accept: request.headers[.accept], coders: coders, bestFormats: configuration.bestFormats)
        let written: TransformSpec
        do {
            let watermarks = configuration.watermarks
            written = try TransformSpec(choice.spec) { name in
                guard let watermark = watermarks[name] else { throw ImageServerError(.badRequest, "no such watermark") }
                return watermark
            }
        } catch {
            throw ImageServerError(.badRequest, "bad spec: \(error)")
        }
        let (spec, ratio) = serverSpec.applyingDevicePixelRatio(to: written, maxPixels: budget.maxPixels)
        try budget.check(spec, operationCount: choice.spec.split(separator: "|").count)
        try policy.checkHost(of: parsed.source)
        let key =
            "\(choice.spec)\ndpr=\(ratio)\n\(parsed.source.absoluteString)" + (serverSpec.cacheBuster.map { "\ncachebuster=\($0)" } ?? "")
            + (serverSpec.keepsCopyright ? "\nkeep_copyright" : "")
            + (choice.bestCandidates.map { "\nbest=" + $0.map(\.rawValue).joined(separator: ",") } ?? "")
        var result: MadeResult
        var status = HTTPResponse.Status.ok
        var maxAge = configuration.resultMaxAge
        var failure: ImageServerError?
        do throws(ImageServerError) {
            result = try await cachedOrMadeResult(forKey: key) { () throws(ImageServerError) in
                try await makeResult(
                    parsed.source, spec: spec, output: OutputRequest(bestCandidates: choice.bestCandidates, keepsCopyright: serverSpec.keepsCopyright),
                    key: key)
            }
        } catch {
            guard error.allowsFallback, let fallback = fallback(for: serverSpec) else { throw error }
            // The failure is still logged and counted; the client sees the fallback, made
            // by the same spec and kept apart from every source's results.
            failure = error
            metrics.recordFallback(failure: Int(error.status.code))
            let fallbackKey =
                "fallback=\(fallback.digest)\n\(choice.spec)\ndpr=\(ratio)"
                + (choice.bestCandidates.map { "\nbest=" + $0.map(\.rawValue).joined(separator: ",") } ?? "")
            result = try await cachedOrMadeResult(forKey: fallbackKey) { () throws(ImageServerError) in
                try await makeFallbackResult(fallback, spec: spec, bestCandidates: choice.bestCandidates, key: fallbackKey)
            }
            status = HTTPResponse.Status(code: fallback.status)
            maxAge = fallback.maxAge
        }
        let eTag = result.metadata.entityTag ?? ""
        var headers = HTTPFields()
        headers[.eTag] = eTag
        headers[.cacheControl] = Self.cacheControl(maxAge: maxAge, expires: serverSpec.expires, now: Date())
        if choice.variesWithAccept { headers[.vary] = "Accept" }
        if status == .ok, let ifNoneMatch = request.headers[.ifNoneMatch], Self.matches(ifNoneMatch, eTag) {
            return (Response(status: .notModified, headers: headers), failure)
        }
        headers[.contentType] = result.metadata.contentType ?? "application/octet-stream"
        headers[.contentLength] = String(result.data.count)
        if let disposition = serverSpec.disposition { headers[.contentDisposition] = disposition.headerValue }
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: result.data))
        return (Response(status: status, headers: headers, body: body), failure)
    }

    /// The result kept under `key`, or the one `make` makes — on the request's deadline, and
    /// shared with every identical request that misses the result cache at the same time.
    private func cachedOrMadeResult(
        forKey key: String, make: @escaping @Sendable () async throws(ImageServerError) -> MadeResult
    ) async throws(ImageServerError) -> MadeResult {
        let cached = try await cachedResult(forKey: key)
        metrics.recordResultCache(hit: cached != nil)
        if let cached { return cached }
        // Each request waits on its own deadline; the work is shared by every request for
        // the key and cancelled only when all of them have left.
        let resultWork = self.resultWork
        return try await withDeadline { () throws(ImageServerError) in try await resultWork.run(key, make) }
    }

    /// The fallback answered for a request whose source fails: that of the first preset the
    /// spec names that has one, else the server's; `nil` for none.
    private func fallback(for spec: ImageServerSpec) -> ImageServerFallback? {
        spec.presetNames.lazy.compactMap { configuration.presetFallbacks[$0] }.first ?? configuration.fallback
    }

    // MARK: Raw

    /// `raw`: the source's bytes answered as they came, under every rule a transform's
    /// source is held to — the allow-list and the address policy at every hop, the byte
    /// limit, and a header the coders read within the pixel, frame and aspect limits — with
    /// the type its bytes are, not the one the source claimed. An SVG is never answered raw:
    /// it may carry script, which the server's origin must not serve.
    private func raw(_ source: URL, spec: ImageServerSpec, request: Request) async throws(ImageServerError) -> Response {
        try policy.checkHost(of: source)
        let limits = withSourceLimits(ImageDecodeOptions())
        let (data, digest) = try await withDeadline { () throws(ImageServerError) -> (Data, String) in
            try await fetch(source)
            return try await slots.withSlot { () throws(ImageServerError) -> (Data, String) in
                let (data, _) = try await readHeader(of: source, options: limits)
                return (data, try await Self.blocking { () throws(ImageServerError) in Self.digest(of: data) })
            }
        }
        let format = ImageFormat(sniffing: data)
        guard format != .svg, let contentType = format.mimeType else {
            throw ImageServerError(
                .unprocessableContent, "source not served raw", detail: "a source of format \(format.rawValue) is not answered raw")
        }
        var headers = HTTPFields()
        headers[.eTag] = "\"\(digest)\""
        headers[.cacheControl] = Self.cacheControl(maxAge: configuration.resultMaxAge, expires: spec.expires, now: Date())
        if let ifNoneMatch = request.headers[.ifNoneMatch], Self.matches(ifNoneMatch, "\"\(digest)\"") {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        headers[.contentLength] = String(data.count)
        if let disposition = spec.disposition { headers[.contentDisposition] = disposition.headerValue }
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        return Response(status: .ok, headers: headers, body: body)
    }

    // MARK: Info

    /// `/info/<signature>/<source>`: the source's metadata as JSON. The signature covers
    /// `/info/<source>`, so that no image URL's signature stands for an info URL's; the
    /// source is fetched under the same rules as an image's.
    private func info(for request: Request, path: String) async throws(ImageServerError) -> Response {
        let parts = path.dropFirst("/info/".count).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw ImageServerError(.badRequest, "the path must be /info/<signature>/<source>")
        }
        let source = try ImageServerRequest.source(from: String(parts[1]))
        try checkSignature(signature: String(parts[0]), signedPath: "/info/\(parts[1])")
        try policy.checkHost(of: source)
        let limits = withSourceLimits(ImageDecodeOptions())
        let info = try await withDeadline { () throws(ImageServerError) -> ImageInfoResponse in
            try await fetch(source)
            return try await slots.withSlot { () throws(ImageServerError) -> ImageInfoResponse in
                let (data, header) = try await readHeader(of: source, options: limits)
                // The reduced decode may still read the whole picture (a PNG's rows).
                return try await withMemory(header.decodeBytes) { () throws(ImageServerError) -> ImageInfoResponse in
                    let coders = self.coders
                    do throws(ImageError) {
                        return try await DecodingWorkers.run { () throws(ImageError) -> ImageInfoResponse in
                            try ImageInfoResponse(data: data, coders: coders, options: limits)
                        }
                    } catch {
                        throw Self.sourceFailure(error)
                    }
                }
            }
        }
        var response = Self.text(info.json, contentType: "application/json")
        response.headers[.cacheControl] = "public, max-age=\(configuration.resultMaxAge)"
        if request.method == .head { response.body = ResponseBody() }
        return response
    }

    /// The request that brings `source` into the source cache; a header over the source
    /// pixel limit is refused before anything is decoded.
    private func fetchRequest(for source: URL) -> ImageRequest {
        var request = ImageRequest(url: source, options: .retryFailed)
        request.maxPixelCount = configuration.maxSourcePixels
        return request
    }

    /// `options` held to the server's limits on a source's pixels, frames and animation work.
    private func withSourceLimits(_ options: ImageDecodeOptions) -> ImageDecodeOptions {
        var options = options
        options.maxPixelCount = configuration.maxSourcePixels
        options.maxFrameCount = configuration.maxAnimationFrames
        options.maxAnimationWork = configuration.maxAnimationPixels
        return options
    }

    private func checkSignature(_ request: ImageServerRequest) throws(ImageServerError) {
        try checkSignature(signature: request.signature, signedPath: request.signedPath)
    }

    private func checkSignature(signature: String, signedPath: String) throws(ImageServerError) {
        if signature == "_", configuration.allowsUnsignedURLs { return }
        guard !signers.isEmpty else {
            throw ImageServerError(.forbidden, "unsigned URLs are not accepted and the server has no signing key")
        }
        guard signers.contains(where: { $0.isValid(signature, for: signedPath) }) else {
            throw ImageServerError(.forbidden, "the signature does not match")
        }
    }

    private func cachedResult(forKey key: String) async throws(ImageServerError) -> MadeResult? {
        let results = self.results
        return try await Self.blocking { () -> MadeResult? in
            guard let data = results.data(forKey: key), let metadata = results.metadata(forKey: key) else { return nil }
            return (data, metadata)
        }
    }

    /// Makes the result of `spec` over `source` and keeps it under `key`: the work one
    /// request or several identical ones share. A request that missed the result cache
    /// just before another's work kept the result finds it here instead of making it again.
    /// `output` says how the result is written beyond the spec.
    private func makeResult(
        _ source: URL, spec: TransformSpec, output: OutputRequest, key: String
    ) async throws(ImageServerError) -> MadeResult {
        if let cached = try await cachedResult(forKey: key) { return cached }
        metrics.recordResultWork()
        // The host was checked against the allow-list; its addresses are checked where the
        // downloader connects, for the first URL and every redirect (``SourceAddressPolicy``).
        // The source's bytes go to the disk cache once (concurrent requests share the
        // transfer, and the header is checked against the pixel limit before anything is
        // decoded); each result then decodes them at the size its spec needs.
        // A failed source is tried again by the next request, not blacklisted.
        try await fetch(source)
        // Only the work takes a slot, and its memory, once however many requests wait for
        // it: waiting for a source, or for a result already made, takes none.
        return try await slots.withSlot { () throws(ImageServerError) in
            let decodeOptions = withSourceLimits(spec.decodeOptions)
            let (data, header) = try await readHeader(of: source, options: decodeOptions)
            let copyright = output.keepsCopyright ? ImageCopyright(readingContainer: data) : nil
            return try await withMemory(header.decodeBytes) { (held: inout Int) throws(ImageServerError) in
                try await transform(
                    data, of: source, spec: spec, options: decodeOptions, bestCandidates: output.bestCandidates, copyright: copyright,
                    key: key, held: &held)
            }
        }
    }

    /// Decodes `data`, the source's bytes as ``readHeader(of:options:)`` read them (the
    /// decode admitted as `held` bytes), plans the transform on the size it decoded at,
    /// holds the memory that plan takes instead, then transforms, encodes (with `copyright`
    /// in the result's metadata, if any) and keeps the result.
    private func transform(
        _ data: Data, of source: URL, spec: TransformSpec, options decodeOptions: ImageDecodeOptions, bestCandidates: [ImageFormat]?,
        copyright: ImageCopyright?, key: String, held: inout Int
    ) async throws(ImageServerError) -> MadeResult {
        let image: Image
        do throws(ImageError) {
            // A lossless turn drops every marker, and writes JPEG alone: the copyright and
            // `best` need a re-encode.
            if copyright == nil, bestCandidates == nil, let lossless = try await losslessJPEG(data, spec: spec, options: decodeOptions) {
                return await keep(lossless.data, digest: lossless.digest, format: .jpeg, forKey: key)
            }
            // The source cache decodes the bytes already read, so that its memory tier
            // (when `memoryLimit` sets one) answers and keeps decodes as for any hit.
            let sources = self.sources
            let sourceKey = manager.cacheKey(for: source)
            let hit = try await DecodingWorkers.run { () throws(ImageError) -> ImageCacheResult? in
                sources.image(decoding: data, forKey: sourceKey, decodeOptions: decodeOptions)
            }
            guard let hit else { throw ImageError(.badImageData, "the cached source does not decode") }
            image = hit.image
        } catch {
            throw Self.sourceFailure(error)
        }
        return try await render(image, spec: spec, bestCandidates: bestCandidates, copyright: copyright, key: key, held: &held)
    }

    /// Makes the result of `spec` over `fallback`'s image and keeps it under `key`.
    private func makeFallbackResult(
        _ fallback: ImageServerFallback, spec: TransformSpec, bestCandidates: [ImageFormat]?, key: String
    ) async throws(ImageServerError) -> MadeResult {
        if let cached = try await cachedResult(forKey: key) { return cached }
        metrics.recordResultWork()
        return try await slots.withSlot { () throws(ImageServerError) in
            try await withMemory(0) { (held: inout Int) throws(ImageServerError) in
                try await render(fallback.image, spec: spec, bestCandidates: bestCandidates, copyright: nil, key: key, held: &held)
            }
        }
    }

    /// Plans the transform of `image` by `spec`, holds the memory that plan takes (as
    /// `held`), then transforms, encodes (with `copyright` in the result's metadata, if
    /// any) and keeps the result under `key`. With `bestCandidates`, the result is written
    /// in each of them and in the format that suits it, and the smallest is kept; every
    /// encode is planned against the request's memory budget.
    private func render(
        _ image: Image, spec: TransformSpec, bestCandidates: [ImageFormat]?, copyright: ImageCopyright?, key: String, held: inout Int
    ) async throws(ImageServerError) -> MadeResult {
        let coders = self.coders
        let format = spec.format ?? (coders.canEncode(to: image.format) ? image.format : coders.preferredFormat(for: image))
        // Every canvas the transform makes is checked before it runs, and the memory it
        // takes beside the decoded image is what the request holds from now on.
        let budget = self.budget
        let (planned, stepBytes) = try budget.plan(spec.transformers, source: image.pixelSize, frames: image.frames.count)
        // `best` may write any candidate, and JPEG or PNG by the result's alpha.
        var encodeBytes = 0
        for candidate in bestCandidates.map({ $0 + [.jpeg, .png] }) ?? [format] {
            encodeBytes = max(encodeBytes, try budget.checkEncoding(planned, frames: image.frames.count, as: candidate))
        }
        let imageBytes = image.pixelWidth * image.pixelHeight * image.frames.count * 4
        try await resize(&held, to: imageBytes + max(stepBytes, encodeBytes))
        // Transforming, encoding and hashing the result all run on a decoding thread.
        let outcome: Result<(Data, String, ImageFormat), ImageServerError>
        do {
            outcome = try await DecodingWorkers.run { () throws(ImageError) -> Result<(Data, String, ImageFormat), ImageServerError> in
                var transformed = image
                var expected = planned
                for (index, transformer) in spec.transformers.enumerated() {
                    // `nil` is a transformer's "nothing to change"; the plan already
                    // refused what cannot apply.
                    transformed = transformer.transform(transformed) ?? transformed
                    // What a trim leaves depends on the pixels: the rest is planned again
                    // from the size it left (never larger than planned at this step).
                    if transformer is TrimmingImageTransformer {
                        do throws(ImageServerError) {
                            expected = try budget.plan(
                                Array(spec.transformers[(index + 1)...]), source: transformed.pixelSize, frames: transformed.frames.count
                            ).size
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                guard transformed.pixelSize == expected else {
                    return .failure(
                        ImageServerError(
                            .unprocessableContent, "the transform failed",
                            detail: "planned \(expected.width)x\(expected.height), made \(transformed.pixelWidth)x\(transformed.pixelHeight)"))
                }
                var encodeOptions = spec.encodeOptions ?? ImageEncodeOptions()
                encodeOptions.copyright = copyright
                guard let bestCandidates else {
                    let data = try coders.encode(transformed, as: format, options: encodeOptions)
                    return .success((data, Self.digest(of: data), format))
                }
                var smallest: (data: Data, format: ImageFormat)?
                for candidate in bestCandidates + [coders.preferredFormat(for: transformed)] {
                    let data = try coders.encode(transformed, as: candidate, options: encodeOptions)
                    if data.count < smallest?.data.count ?? .max { smallest = (data, candidate) }
                }
                guard let smallest else { throw ImageError(.encodingFailed, "no format was tried") }
                return .success((smallest.data, Self.digest(of: smallest.data), smallest.format))
            }
        } catch {
            throw ImageServerError(.unprocessableContent, "the result could not be written as \(format.rawValue)", detail: error.message)
        }
        let (encoded, digest, written) = try outcome.get()
        return await keep(encoded, digest: digest, format: written, forKey: key)
    }

    /// Fetches `source` into the source cache, counted against the fetch limits.
    private func fetch(_ source: URL) async throws(ImageServerError) {
        do throws(ImageError) {
            try await sourceFetches.ensureOnDisk(fetchRequest(for: source))
        } catch {
            throw Self.sourceFailure(error)
        }
    }

    /// The cached bytes of `source` and what their header declares, checked against the
    /// limits in `options` and the aspect-ratio limit, before any pixel is decoded.
    private func readHeader(of source: URL, options: ImageDecodeOptions) async throws(ImageServerError) -> (Data, SourceHeader) {
        let storage = sources.diskStorage
        let key = manager.cacheKey(for: source)
        let coders = self.coders
        let maxAspectRatio = configuration.maxSourceAspectRatio
        do throws(ImageError) {
            return try await DecodingWorkers.run { () throws(ImageError) -> (Data, SourceHeader) in
                guard let data = storage.data(forKey: key) else { throw ImageError(.badImageData, "the cached source is gone") }
                return (data, try SourceHeader(data: data, coders: coders, options: options, maxAspectRatio: maxAspectRatio))
            }
        } catch {
            throw Self.sourceFailure(error)
        }
    }

    /// The source turned or mirrored without re-encoding, with its digest, when the spec
    /// is only quarter turns and flips of a JPEG written as JPEG (see
    /// `TransformSpec.losslessJPEG(from:writing:decodeOptions:)`); `nil` otherwise.
    private func losslessJPEG(
        _ data: Data, spec: TransformSpec, options: ImageDecodeOptions
    ) async throws(ImageError) -> (data: Data, digest: String)? {
        guard spec.format == nil || spec.format == .jpeg, spec.isLosslessForJPEG else { return nil }
        return try await DecodingWorkers.run { () throws(ImageError) -> (data: Data, digest: String)? in
            guard let turned = try spec.losslessJPEG(from: data, writing: .jpeg, decodeOptions: options) else { return nil }
            return (turned, Self.digest(of: turned))
        }
    }

    /// Keeps a result in the result cache (a result that cannot be kept is still answered).
    private func keep(
        _ encoded: Data, digest: String, format: ImageFormat, forKey key: String
    ) async -> MadeResult {
        let metadata = DiskCacheEntryMetadata(contentType: format.mimeType, entityTag: "\"\(digest)\"")
        let results = self.results
        try? await Self.blocking { () throws(ImageServerError) in
            try? results.store(encoded, forKey: key, metadata: metadata)
        }
        return (encoded, metadata)
    }

    /// The entity tag's digest of a result: the first 16 bytes of its SHA-256, in hex.
    private static func digest(of data: Data) -> String {
        SHA256.hash(data).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    // MARK: Helpers

    /// Runs `work` on a request's deadline (``ImageServerConfiguration/requestTimeout``):
    /// past it, the request is answered 504 and its work is cancelled; the work's slot and
    /// memory are given back when the work itself ends, so that nothing admitted is
    /// counted out while it still runs.
    private func withDeadline<Value: Sendable>(
        _ work: @escaping @Sendable () async throws(ImageServerError) -> Value
    ) async throws(ImageServerError) -> Value {
        let answer = NIOLockedValueBox<CheckedContinuation<Result<Value, ImageServerError>, Never>?>(nil)
        // The timer ends with the work, so that no request leaves a sleeping task behind.
        let timer = NIOLockedValueBox<Task<Void, Never>?>(nil)
        let timeout = configuration.requestTimeout
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, ImageServerError>, Never>) in
            answer.withLockedValue { $0 = continuation }
            let running = Task { () -> Void in
                let result: Result<Value, ImageServerError>
                do throws(ImageServerError) {
                    result = .success(try await work())
                } catch {
                    result = .failure(error)
                }
                answer.withLockedValue { $0.take() }?.resume(returning: result)
                timer.withLockedValue { $0 }?.cancel()
            }
            let sleeper = Task {
                try? await Task.sleep(for: .seconds(timeout))
                guard let continuation = answer.withLockedValue({ $0.take() }) else { return }
                running.cancel()
                var error = ImageServerError(.gatewayTimeout, "the request took too long", detail: "over its deadline of \(timeout) s")
                error.allowsFallback = true
                continuation.resume(returning: .failure(error))
            }
            timer.withLockedValue { $0 = sleeper }
            // Work that ended before the timer was stored found none to cancel.
            if answer.withLockedValue({ $0 == nil }) { sleeper.cancel() }
        }
        return try outcome.get()
    }

    /// Runs `work` holding `bytes` of the process-wide memory budget (waiting for room as
    /// ``MemoryAdmission`` does); `work` may change what it holds through its argument.
    private func withMemory<Value>(
        _ bytes: Int, _ work: (inout Int) async throws(ImageServerError) -> Value
    ) async throws(ImageServerError) -> Value {
        try await memory.admit(bytes)
        var held = bytes
        defer { memory.release(held) }
        return try await work(&held)
    }

    /// Runs `work` holding `bytes` of the process-wide memory budget.
    private func withMemory<Value>(_ bytes: Int, _ work: () async throws(ImageServerError) -> Value) async throws(ImageServerError) -> Value {
        try await withMemory(bytes) { (_: inout Int) throws(ImageServerError) in try await work() }
    }

    /// Changes the memory a request holds from `held` to `bytes`: gives back what it no
    /// longer needs, or waits for what it needs more.
    private func resize(_ held: inout Int, to bytes: Int) async throws(ImageServerError) {
        if bytes > held {
            try await memory.admit(bytes - held)
        } else {
            memory.release(held - bytes)
        }
        held = bytes
    }

    /// Runs blocking work on NIO's blocking-I/O threads.
    private static func blocking<Value: Sendable>(_ body: @escaping @Sendable () throws(ImageServerError) -> Value) async throws(ImageServerError) -> Value {
        let result: Result<Value, ImageServerError>
        do {
            result = try await DecodingWorkers.run(on: NIOThreadPool.singleton) { () throws(ImageError) -> Result<Value, ImageServerError> in
                do throws(ImageServerError) {
                    return .success(try body())
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw ImageServerError(.serviceUnavailable, "the server is shutting down")
        }
        return try result.get()
    }

    /// The status a failed source load answers with, and the class of the failure the
    /// client hears (one a fallback image may answer for, but a bad URL); the error's message (which may name URLs, hosts, addresses and
    /// upstream statuses) goes to the log only.
    static func sourceFailure(_ error: ImageError) -> ImageServerError {
        let (status, message): (HTTPResponse.Status, String) =
            switch error.code {
            case .responseTooLarge: (.contentTooLarge, "source too large")
            case .imageTooLarge: (.unprocessableContent, "source image too large")
            case .badImageData, .emptyData, .unsupportedFormat: (.unprocessableContent, "source not an image")
            case .timedOut, .deadlineExceeded: (.gatewayTimeout, "source timed out")
            case .refused: (.forbidden, "address not allowed")
            case .invalidURL, .blacklisted: (.badRequest, "bad source URL")
            case .cannotFindHost: (.notFound, "source not found")
            case .invalidStatusCode where error.statusCode == 404 || error.statusCode == 410: (.notFound, "source not found")
            default: (.badGateway, "source refused")
            }
        var failure = ImageServerError(status, message, detail: error.description)
        // A bad source URL is the request's own fault, not the source's.
        failure.allowsFallback = status != .badRequest
        return failure
    }

    /// The `Cache-Control` of a result: public for `maxAge` seconds, or for the seconds left
    /// before `expires` (seconds since 1970) when that is sooner, so that no cache in front
    /// of the server keeps answering a URL after its deadline.
    static func cacheControl(maxAge: Int, expires: Int?, now: Date) -> String {
        guard let expires else { return "public, max-age=\(maxAge)" }
        let left = max(0, Int((Double(expires) - now.timeIntervalSince1970).rounded(.down)))
        return "public, max-age=\(min(maxAge, left))"
    }

    /// Whether an `If-None-Match` value names `eTag` (or is `*`).
    static func matches(_ ifNoneMatch: String, _ eTag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == eTag || trimmed == "W/\(eTag)"
        }
    }

    static func refusal(_ error: ImageServerError) -> Response {
        var response = text(error.body, contentType: "application/json")
        response.status = error.status
        return response
    }

    static func text(_ text: String, contentType: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
