import Foundation
import Tracing
import WebImage

/// Makes one result, beside ``TransformBudget``: in a transform slot, holding the memory
/// its plans take, it decodes the source through the source cache, transforms it by the
/// spec and encodes it. Keeping the result is the ``ResultCache``'s part.
///
/// A run starts only once the result cache has missed and the source is on disk: waiting
/// for a source, or for a result already made, takes no slot and no memory. With
/// ``DecodedSources``, a source's decode serves the other sizes asked of it while it is
/// kept: a run that finds one there holds only the memory of its transform and encode.
///
/// Work that outlives its request is bounded by steps: once the request is over (its
/// deadline passed, its client gone), the run stops before the transform, before each
/// candidate of `best` and between an animation's frames (see `ImageWorkCancellation`),
/// and an AVIF encode, which cannot be interrupted, starts only when its plan fits the
/// time left (``AVIFEncodePlan``).
///
/// Room Processing/: a result made from a source — the source's header, the transform's budget, the output format chosen, the decode, transform and encode.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
struct TransformRun: Sendable {
    /// A result's encoded bytes, the digest of its entity tag and the format it was
    /// written in.
    typealias Encoded = (data: Data, digest: String, format: ImageFormat)

    let sources: CachedSources
    let budget: TransformBudget
    let memory: MemoryAdmission
    let slots: TransformSlots
    /// Where each encode started, and each run stopped at a step, is counted.
    let metrics: ImageServerMetrics
    /// The decoded sources kept for reuse; `nil` when none are kept.
    let decoded: DecodedSources?

    /// Runs `body`, a request's fetch of `source` and its run by `spec`, counted as under
    /// way for the source (``DecodedSources/interested(in:asking:_:)``): counted from before
    /// the fetch, the sizes a page asks for at once find each other while they wait for the
    /// source, and the first decode is made for the largest of them.
    func asking<Result>(
        for source: URL, by spec: TransformSpec, _ body: () async throws(ImageServerError) -> Result
    ) async throws(ImageServerError) -> Result {
        guard let decoded else { return try await body() }
        return try await decoded.interested(in: sources.key(source), asking: sources.limited(spec.decodeOptions), body)
    }

    /// The result of `spec` over `source`, whose bytes are in the source cache; `output`
    /// says how it is written beyond the spec. `watermarks` names the images, in the source
    /// cache too, that the spec's overlays of those names draw: each is read within the
    /// source limits and decoded as a source is (its first frame, in a worker for the
    /// workers' formats), its pixels held in the memory budget until the result is made.
    func run(
        _ source: URL, watermarks: [String: URL] = [:], spec: TransformSpec, output: OutputRequest
    ) async throws(ImageServerError) -> Encoded {
        try await slots.withSlot { () throws(ImageServerError) in
            guard !watermarks.isEmpty else { return try await runInSlot(source, spec: spec, output: output) }
            var options = sources.limited(ImageDecodeOptions())
            options.firstFrameOnly = true
            var read: [(name: String, source: URL, data: Data, header: SourceHeader)] = []
            for (name, watermark) in watermarks.sorted(by: { $0.key < $1.key }) {
                let (data, header) = try await sources.header(of: watermark, options: options)
                read.append((name, watermark, data, header))
            }
            let (sources, bytes) = (self.sources, read.reduce(0) { $0 + $1.header.decodeBytes })
            return try await memory.holding(bytes) { () throws(ImageServerError) in
                var images: [String: Image] = [:]
                for watermark in read {
                    images[watermark.name] = try await sources.decode(watermark.data, of: watermark.source, header: watermark.header, options: options)
                }
                return try await runInSlot(source, spec: spec.drawing(images), output: output)
            }
        }
    }

    /// The result of `spec` over `source`, made in the slot the caller holds.
    private func runInSlot(_ source: URL, spec: TransformSpec, output: OutputRequest) async throws(ImageServerError) -> Encoded {
        let decodeOptions = sources.limited(spec.decodeOptions)
        let (data, header) = try await sources.header(of: source, options: decodeOptions)
        let copyright = output.keepsCopyright ? ImageCopyright(readingContainer: data) : nil
        // An AVIF encode that cannot end in time is refused before the decode.
        if output.bestCandidates == nil, spec.format ?? ImageFormat(sniffing: data) == .avif, sources.coders.canEncode(to: .avif) {
            let planned = try budget.plan(spec.transformers, source: header.size, frames: header.frames).size
            let frames = spec.encodeOptions?.firstFrameOnly == true ? 1 : header.frames
            try AVIFEncodePlan.check(planned, frames: frames, lossless: spec.encodeOptions?.lossless ?? false)
        }
        // A JPEG whose pixels stay as they are is written without its pixels decoded.
        let isJPEG = ImageFormat(sniffing: data) == .jpeg
        let recompresses = output.bestCandidates == nil && spec.format == .jxl && spec.keepsPixels && isJPEG
        let turnsLosslessly =
            copyright == nil && output.bestCandidates == nil && (spec.format == nil || spec.format == .jpeg) && spec.isLosslessForJPEG
            && isJPEG
        if let decoded, !recompresses, !turnsLosslessly,
            let encoded = try await run(
                data, of: source, header: header, options: decodeOptions, through: decoded, spec: spec, output: output, copyright: copyright)
        {
            return encoded
        }
        return try await memory.holding(header.decodeBytes) { (held: inout Int) throws(ImageServerError) in
            // JPEG XL of a JPEG whose pixels stay as they are: recompressed, not
            // re-encoded (JXL writes no copyright either way).
            if output.bestCandidates == nil, spec.format == .jxl, spec.keepsPixels, ImageFormat(sniffing: data) == .jpeg,
                let recompressed = try await recompressedJPEG(data, size: header.size, spec: spec, options: decodeOptions, held: &held)
            {
                return recompressed
            }
            do throws(ImageError) {
                // A lossless turn drops every marker, and writes JPEG alone: the
                // copyright and `best` need a re-encode.
                if copyright == nil, output.bestCandidates == nil,
                    let lossless = try await losslessJPEG(data, spec: spec, options: decodeOptions)
                {
                    return (lossless.data, lossless.digest, .jpeg)
                }
            } catch {
                throw ImageServerError(source: error)
            }
            let image = try await sources.decode(data, of: source, header: header, options: decodeOptions)
            return try await render(image, spec: spec, bestCandidates: output.bestCandidates, copyright: copyright, held: &held)
        }
    }

    /// The result of `spec` over `source`, whose bytes `data` declare `header`, from a
    /// decode with `options` that `decoded` keeps or is given: the decode's pixels are held
    /// by the decode itself (see ``DecodedSource``), so the run holds, beside them, only
    /// what its transform and encode take. `nil` when the tier answers that the source is
    /// not shared (``DecodedSources/Lookup/alone``): the run decodes it the usual way.
    private func run(
        _ data: Data, of source: URL, header: SourceHeader, options: ImageDecodeOptions, through decoded: DecodedSources,
        spec: TransformSpec, output: OutputRequest, copyright: ImageCopyright?
    ) async throws(ImageServerError) -> Encoded? {
        let format = ImageFormat(sniffing: data)
        let headroom: Int? =
            if format == .webp && header.frames == 1 {
                DecodedSources.stillWebPHeadroom
            } else if format == .jpeg || header.frames > 1 || sources.workers.reads(data, coders: sources.coders) {
                DecodedSources.headroom
            } else {
                nil
            }
        let reducedLikeJPEG = format == .jpeg || format == .webp
        switch try await decoded.lookUp(source: sources.key(source), options: options, headroom: headroom) {
        case .alone:
            return nil
        case .decoded(let decode):
            return try await memory.holding(0) { (held: inout Int) throws(ImageServerError) in
                try await render(
                    decode, of: header.size, reducedLikeJPEG: reducedLikeJPEG, spec: spec, output: output,
                    copyright: copyright, held: &held)
            }
        case .decode(let ticket):
            do throws(ImageServerError) {
                return try await memory.holding(header.decodeBytes) { (held: inout Int) throws(ImageServerError) in
                    let image = try await sources.decode(data, of: source, header: header, options: ticket.options)
                    // The decode's pixels pass from the run's hold to the decode's own.
                    let bytes = image.memoryCost
                    try await memory.resize(&held, to: max(held, bytes))
                    held -= bytes
                    let decode = DecodedSource(image: image, options: ticket.options, bytes: bytes, hold: MemoryHold(bytes, of: memory))
                    decoded.keep(ticket, decode, storing: memory.waiting == 0)
                    return try await render(
                        decode, of: header.size, reducedLikeJPEG: reducedLikeJPEG, spec: spec, output: output,
                        copyright: copyright, held: &held)
                }
            } catch {
                // Given up before it was kept: the requests waiting for it look again.
                decoded.abandon(ticket)
                throw error
            }
        }
    }

    /// Renders `decode`'s image, a decode of a `source`-sized picture, as
    /// `render(_:spec:bestCandidates:copyright:held:countsImage:)` does, its pixels counted
    /// by the decode, which stays alive (and counted) until the render is done.
    ///
    /// When `reducedLikeJPEG` (the source is a JPEG or a WebP, whose decode for a request
    /// alone is a reduced one and whose header gives its size) and the spec starts with a
    /// resize, that resize is planned from the source's size, not the decode's, so that a
    /// result has the size an uncached decode gives it whichever kept decode it is made
    /// from (a 1597 × 1203 source asked 331 px wide is 331 × 249 from the source and from a
    /// decode at 331 px, 331 × 250 from one kept at 662 × 499); and when it halves the
    /// decode or more on each side, the decode is first averaged down by whole blocks
    /// (`Bitmap.boxShrunk(by:isOpaque:)`) to about the size a decode for this request alone
    /// would have had, and resampled from that: a kept decode is made for the largest size
    /// a page asks, and resampling all of it to each smaller size cost more than the
    /// decodes it saved (37 % of the CPU of the srcset benchmark's JPEG results went to the
    /// resampler).
    private func render(
        _ decode: DecodedSource, of source: PixelSize, reducedLikeJPEG: Bool, spec: TransformSpec, output: OutputRequest,
        copyright: ImageCopyright?, held: inout Int
    ) async throws(ImageServerError) -> Encoded {
        if reducedLikeJPEG, let (resize, factor) = Self.resize(of: decode.image, from: source, by: spec) {
            let image = decode.image
            let shrunk = PixelSize(
                width: (image.pixelWidth + factor - 1) / factor, height: (image.pixelHeight + factor - 1) / factor)
            // The block average and the resize from it, held beside the decode.
            let stepBytes = try budget.plan([resize], source: shrunk, frames: 1).peakBytes
            try await memory.resize(&held, to: held + stepBytes)
            let resized: Image?
            do throws(ImageError) {
                resized = try await DecodingWorkers.run { () throws(ImageError) -> Image? in
                    guard factor > 1 else { return resize.transform(image, planningFrom: source) }
                    guard let bitmap = try image.bitmap.boxShrunk(by: factor, isOpaque: !image.hasAlpha) else { return nil }
                    return resize.transform(image.replacingFrames { _ in bitmap }, planningFrom: source)
                }
            } catch {
                throw ImageServerError(source: error)
            }
            if let resized {
                var rest = spec
                rest.transformers.removeFirst()
                return try await render(
                    resized, spec: rest, bestCandidates: output.bestCandidates, copyright: copyright, held: &held, countsImage: true)
            }
        }
        let encoded = try await render(
            decode.image, spec: spec, bestCandidates: output.bestCandidates, copyright: copyright, held: &held, countsImage: false)
        withExtendedLifetime(decode) {}
        return encoded
    }

    /// The resize that starts `spec`, when `image` is a decode of a `source`-sized still
    /// (upright, a single 8-bit frame without a gain map, the source's shape), and the whole
    /// factor the image is averaged down by before it (1 for none; at most 64): the largest
    /// that keeps at least the size the resize scales the source to on each side. `nil`
    /// when the spec starts otherwise, the image is another shape, or it is the source's
    /// size and is not averaged down: its own size plans the resize.
    private static func resize(of image: Image, from source: PixelSize, by spec: TransformSpec) -> (ResizingImageTransformer, Int)? {
        let decoded = image.pixelSize
        guard let resize = spec.transformers.first as? ResizingImageTransformer, image.frames.count == 1,
            image.gainMap == nil, image.orientation == .up, image.bitmap.pixelFormat == .rgba8,
            decoded.width <= source.width, decoded.height <= source.height,
            // The same shape within a pixel's rounding.
            abs(decoded.width * source.height - decoded.height * source.width) <= max(source.width, source.height),
            let plan = resize.plan(for: source), plan.scaled.width <= decoded.width, plan.scaled.height <= decoded.height
        else { return nil }
        let factor = max(1, min(64, decoded.width / plan.scaled.width, decoded.height / plan.scaled.height))
        return decoded == source && factor == 1 ? nil : (resize, factor)
    }

    /// The result of `spec` over a fallback's image.
    func run(_ fallback: ImageServerFallback, spec: TransformSpec, bestCandidates: [ImageFormat]?) async throws(ImageServerError) -> Encoded {
        try await slots.withSlot { () throws(ImageServerError) in
            try await memory.holding(0) { (held: inout Int) throws(ImageServerError) in
                try await render(fallback.image, spec: spec, bestCandidates: bestCandidates, copyright: nil, held: &held)
            }
        }
    }

    /// Plans the transform of `image` by `spec`, holds the memory that plan takes (as
    /// `held`, which holds the decode until then; the image's own pixels too when
    /// `countsImage`, else they are held apart), then transforms and encodes (with
    /// `copyright` in the result's metadata, if any). With `bestCandidates`, the result is
    /// written in each of them and in the format that suits it, and the smallest is kept;
    /// every encode is planned against the request's memory budget, and an AVIF one against
    /// the time left (a `best` leaves AVIF out when it does not fit).
    ///
    /// - Throws: ``ImageServerError`` 504 when the request ended before a step (the
    ///   transform, a candidate, a frame) or an AVIF encode would outlast it.
    private func render(
        _ image: Image, spec: TransformSpec, bestCandidates: [ImageFormat]?, copyright: ImageCopyright?, held: inout Int,
        countsImage: Bool = true
    ) async throws(ImageServerError) -> Encoded {
        let coders = sources.coders
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
        // A gain map goes through every step and is encoded too, at its own share of the pixels.
        let gainMapBytes = image.gainMap?.bitmap.byteCount ?? 0
        let gainMapShare = Double(gainMapBytes) / Double(max(1, image.bitmap.byteCount))
        let imageBytes = image.pixelWidth * image.pixelHeight * image.frames.count * 4 + gainMapBytes
        try await memory.resize(&held, to: (countsImage ? imageBytes : 0) + Int(Double(max(stepBytes, encodeBytes)) * (1 + gainMapShare)))
        // The time left now, after the decode, decides whether AVIF is written.
        let lossless = spec.encodeOptions?.lossless ?? false
        let encodedFrames = spec.encodeOptions?.firstFrameOnly == true ? 1 : image.frames.count
        if bestCandidates == nil, format == .avif {
            try AVIFEncodePlan.check(planned, frames: encodedFrames, lossless: lossless)
        }
        let candidates = bestCandidates?.filter { $0 != .avif || AVIFEncodePlan.fits(planned, frames: encodedFrames, lossless: lossless) }
        let metrics = self.metrics
        // Transforming, encoding and hashing the result all run on a decoding thread, in
        // spans started in the request's context when it is traced.
        let traced = StageSpan.context
        // The request's end (its deadline, its client gone) cancels this task; the work on
        // the decoding thread reads it between steps.
        let attempt = await ImageWorkCancellation.following { cancellation -> Result<Result<Encoded, ImageServerError>, ImageError> in
            do throws(ImageError) {
                return .success(
                    try await DecodingWorkers.run { () throws(ImageError) -> Result<Encoded, ImageServerError> in
                        try cancellation.check(before: "the transform")
                        let transformed: Image
                        do throws(ImageServerError) {
                            transformed = try Self.transform(image, spec: spec, planned: planned, budget: budget, traced: traced)
                        } catch {
                            return .failure(error)
                        }
                        var encodeOptions = spec.encodeOptions ?? ImageEncodeOptions()
                        encodeOptions.copyright = copyright
                        encodeOptions.cancellation = cancellation
                        return .success(
                            try StageSpan.measure("encode", in: traced) { span throws(ImageError) -> Encoded in
                                /// `transformed` written as `format`, and counted, while the request is still on.
                                func encode(as format: ImageFormat) throws(ImageError) -> Data {
                                    try cancellation.check(before: "the \(format.rawValue) encode")
                                    metrics.recordEncode(format: format)
                                    return try coders.encode(transformed, as: format, options: encodeOptions)
                                }
                                let encoded: Encoded
                                if let candidates {
                                    var smallest: (data: Data, format: ImageFormat)?
                                    for candidate in candidates + [coders.preferredFormat(for: transformed)] {
                                        let data = try encode(as: candidate)
                                        if data.count < smallest?.data.count ?? .max { smallest = (data, candidate) }
                                    }
                                    guard let smallest else { throw ImageError(.encodingFailed, "no format was tried") }
                                    encoded = (smallest.data, ResultCache.digest(of: smallest.data), smallest.format)
                                } else {
                                    let data = try encode(as: format)
                                    encoded = (data, ResultCache.digest(of: data), format)
                                }
                                span?.updateAttributes { attributes in
                                    attributes["webimage.encode.format"] = encoded.format.rawValue
                                    attributes["webimage.encode.bytes"] = encoded.data.count
                                }
                                return encoded
                            })
                    })
            } catch {
                return .failure(error)
            }
        }
        switch attempt {
        case .success(let outcome):
            return try outcome.get()
        case .failure(let error) where error.code == .cancelled:
            metrics.recordWorkStopped()
            var stopped = ImageServerError(.gatewayTimeout, "the request took too long", detail: error.message)
            stopped.allowsFallback = true
            throw stopped
        case .failure(let error):
            throw ImageServerError(.unprocessableContent, "the result could not be written as \(format.rawValue)", detail: error.message)
        }
    }

    /// `image` transformed by `spec`'s transformers, in a span started in `traced`, checked
    /// to come out at the `planned` size (planned again after a trim, from what it left).
    private static func transform(
        _ image: Image, spec: TransformSpec, planned: PixelSize, budget: TransformBudget, traced: InstrumentationContext?
    ) throws(ImageServerError) -> Image {
        try StageSpan.measure("transform", in: traced) { span throws(ImageServerError) in
            var transformed = image
            var expected = planned
            for (index, transformer) in spec.transformers.enumerated() {
                // `nil` is a transformer's "nothing to change"; the plan already
                // refused what cannot apply.
                transformed = transformer.transform(transformed) ?? transformed
                // What a trim leaves depends on the pixels: the rest is planned again
                // from the size it left (never larger than planned at this step).
                if transformer is TrimmingImageTransformer {
                    expected = try budget.plan(
                        Array(spec.transformers[(index + 1)...]), source: transformed.pixelSize, frames: transformed.frames.count
                    ).size
                }
            }
            guard transformed.pixelSize == expected else {
                throw ImageServerError(
                    .unprocessableContent, "the transform failed",
                    detail: "planned \(expected.width)x\(expected.height), made \(transformed.pixelWidth)x\(transformed.pixelHeight)")
            }
            span?.updateAttributes { attributes in
                attributes["webimage.transform.operations"] = spec.transformers.count
                attributes["webimage.transform.pixels"] = transformed.pixelWidth * transformed.pixelHeight
            }
            return transformed
        }
    }

    /// The JPEG source recompressed into JPEG XL without loss, with its digest, holding
    /// the memory a JPEG XL encode of its size is planned at; `nil` when libjxl refused it
    /// (see `ImageCodersManager.recompressedJPEG(_:colorProfile:limits:)`).
    private func recompressedJPEG(
        _ data: Data, size: PixelSize, spec: TransformSpec, options: ImageDecodeOptions, held: inout Int
    ) async throws(ImageServerError) -> Encoded? {
        try await memory.resize(&held, to: max(held, try budget.checkEncoding(size, frames: 1, as: .jxl)))
        let coders = sources.coders
        let colorProfile = spec.encodeOptions?.colorProfile ?? ImageEncodeOptions().colorProfile
        do {
            return try await DecodingWorkers.run { () throws(ImageError) -> Encoded? in
                guard let recompressed = coders.recompressedJPEG(data, colorProfile: colorProfile, limits: options) else { return nil }
                return (recompressed, ResultCache.digest(of: recompressed), .jxl)
            }
        } catch {
            throw ImageServerError(source: error)
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
            return (turned, ResultCache.digest(of: turned))
        }
    }
}
