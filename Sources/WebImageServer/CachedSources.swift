import Foundation
import WebImage

/// The source cache as the stages read it, once ``SourceFetches`` has brought a source to
/// its disk: the source's bytes and what their header declares, checked against the
/// server's source limits before any pixel is decoded, and their decode through the cache.
struct CachedSources: Sendable {
    /// The cache of sources the server's manager fills.
    let cache: ImageCache
    /// The key the manager keeps a source under.
    let key: @Sendable (URL) -> String
    private let maxPixels: Int
    private let maxFrames: Int
    private let maxAnimationWork: Int
    private let maxAspectRatio: Double

    /// Reads `cache`, whose entries are kept under `key`, within `configuration`'s
    /// limits on a source.
    init(cache: ImageCache, key: @escaping @Sendable (URL) -> String, configuration: ImageServerConfiguration) {
        self.cache = cache
        self.key = key
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
        let maxAspectRatio = self.maxAspectRatio
        do throws(ImageError) {
            return try await DecodingWorkers.run { () throws(ImageError) -> (Data, SourceHeader) in
                guard let data = storage.data(forKey: key) else { throw ImageError(.badImageData, "the cached source is gone") }
                return (data, try SourceHeader(data: data, coders: coders, options: options, maxAspectRatio: maxAspectRatio))
            }
        } catch {
            throw ImageServerError(source: error)
        }
    }

    /// Decodes `data`, the bytes of `source` as ``header(of:options:)`` read them, through
    /// the cache, so that its memory tier (when `memoryLimit` sets one) answers and keeps
    /// decodes as for any hit.
    ///
    /// - Throws: ``ImageError`` when the bytes do not decode.
    func decode(_ data: Data, of source: URL, options: ImageDecodeOptions) async throws(ImageError) -> Image {
        let cache = self.cache
        let key = self.key(source)
        let hit = try await DecodingWorkers.run { () throws(ImageError) -> ImageCacheResult? in
            cache.image(decoding: data, forKey: key, decodeOptions: options)
        }
        guard let hit else { throw ImageError(.badImageData, "the cached source does not decode") }
        return hit.image
    }
}
