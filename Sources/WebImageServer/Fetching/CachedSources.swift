import Foundation
import WebImage

/// The source cache as the stages read it, once ``SourceFetches`` has brought a source to
/// its disk: the source's bytes and what their header declares, checked against the
/// server's source limits before any pixel is decoded, and their decode through the cache
/// (or, for SVG and the other formats decode workers read, in a worker: see ``DecodeWorkers``).
struct CachedSources: Sendable {
    /// The cache of sources the server's manager fills.
    let cache: ImageCache
    /// The key the manager keeps a source under.
    let key: @Sendable (URL) -> String
    /// The workers that read the sources of their formats.
    let workers: DecodeWorkers
    private let maxPixels: Int
    private let maxFrames: Int
    private let maxAnimationWork: Int
    private let maxAspectRatio: Double

    /// Reads `cache`, whose entries are kept under `key`, within `configuration`'s
    /// limits on a source, in `workers` for their formats.
    init(cache: ImageCache, key: @escaping @Sendable (URL) -> String, configuration: ImageServerConfiguration, workers: DecodeWorkers) {
        self.cache = cache
        self.key = key
        self.workers = workers
        maxPixels = configuration.maxSourcePixels
        maxFrames = configuration.maxAnimationFrames
        maxAnimationWork = configuration.maxAnimationPixels
        maxAspectRatio = configuration.maxSourceAspectRatio
    }

    /// The coders the cache decodes with.
    var coders: ImageCodersManager { cache.coders }

    /// `options` held to the server's limits on a source's pixels, frames and animation work.
    func limited(_ options: ImageDecodeOptions) -> ImageDecodeOptions {
        var options = options
        options.maxPixelCount = maxPixels
        options.maxFrameCount = maxFrames
        options.maxAnimationWork = maxAnimationWork
        return options
    }

    /// The cached bytes of `source` and what their header declares, checked against the
    /// limits in `options` and the aspect-ratio limit, before any pixel is decoded.
    ///
    /// - Throws: ``ImageServerError`` with the class of the source's failure.
    func header(of source: URL, options: ImageDecodeOptions) async throws(ImageServerError) -> (Data, SourceHeader) {
        let storage = cache.diskStorage
        let key = self.key(source)
        let coders = self.coders
        let (maxAspectRatio, workers) = (self.maxAspectRatio, self.workers)
        let read: (Data, SourceHeader?)
        do throws(ImageError) {
            read = try await DecodingWorkers.run { () throws(ImageError) -> (Data, SourceHeader?) in
                guard let data = storage.data(forKey: key) else { throw ImageError(.badImageData, "the cached source is gone") }
                if workers.reads(data, coders: coders) { return (data, nil) }
                return (data, try SourceHeader(data: data, coders: coders, options: options, maxAspectRatio: maxAspectRatio))
            }
        } catch {
            throw ImageServerError(source: error)
        }
        if let header = read.1 { return (read.0, header) }
        let (declared, frames) = try await workers.header(of: read.0, options: options)
        do throws(ImageError) {
            let format = ImageFormat(sniffing: read.0)
            return (read.0, try SourceHeader(declared: declared, frames: frames, format: format, options: options, maxAspectRatio: maxAspectRatio))
        } catch {
            throw ImageServerError(source: error)
        }
    }

    /// Decodes `data`, the bytes of `source` as ``header(of:options:)`` read them and
    /// planned at `header`, through the cache, so that its memory tier (when `memoryLimit`
    /// sets one) answers and keeps decodes as for any hit; in a worker for the workers'
    /// formats, past the cache.
    ///
    /// - Throws: ``ImageServerError`` with the class of the source's failure.
    func decode(_ data: Data, of source: URL, header: SourceHeader, options: ImageDecodeOptions) async throws(ImageServerError) -> Image {
        try await StageSpan.run("decode") { span throws(ImageServerError) in
            let inWorker = workers.reads(data, coders: coders)
            span?.updateAttributes { attributes in
                attributes["webimage.decode.format"] = ImageFormat(sniffing: data).rawValue
                attributes["webimage.decode.where"] = inWorker ? "worker" : "in_process"
                attributes["webimage.decode.pixels"] = header.size.width * header.size.height
                attributes["webimage.source.bytes"] = data.count
            }
            if inWorker {
                return try await workers.decode(data, options: options, plannedBytes: header.decodeBytes)
            }
            let cache = self.cache
            let key = self.key(source)
            do throws(ImageError) {
                let hit = try await DecodingWorkers.run { () throws(ImageError) -> ImageCacheResult? in
                    cache.image(decoding: data, forKey: key, decodeOptions: options)
                }
                guard let hit else { throw ImageError(.badImageData, "the cached source does not decode") }
                return hit.image
            } catch {
                throw ImageServerError(source: error)
            }
        }
    }
}
