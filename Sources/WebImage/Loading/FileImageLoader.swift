import Foundation
import NIOPosix

/// Loads `file:` URLs: reads the file on NIO's blocking-I/O threads and decodes it on the
/// decoding workers.
public struct FileImageLoader: ImageLoader {
    /// The coders that decode the files.
    public let coders: ImageCodersManager

    /// Creates a loader that decodes with `coders`.
    public init(coders: ImageCodersManager = .shared) {
        self.coders = coders
    }

    /// Whether `url` is a `file:` URL.
    public func canLoad(_ url: URL) -> Bool {
        url.isFileURL
    }

    /// Reads and decodes the file.
    ///
    /// - Throws: `ImageError.Code.fileSystem` when the file cannot be read, or a decoding error.
    public func loadImage(_ request: ImageLoadRequest) async throws(ImageError) -> ImageLoadResult {
        guard request.url.isFileURL else {
            throw ImageError(.invalidURL, "\(request.url.absoluteString) is not a file URL")
        }
        let path = request.url.path
        request.progress?(0, -1)
        let data = try await DecodingWorkers.run(on: NIOThreadPool.singleton) { () throws(ImageError) -> Data in
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ImageError(.fileSystem, "cannot read \(path): \(error.localizedDescription)")
            }
        }
        request.progress?(Int64(data.count), Int64(data.count))
        if Task.isCancelled {
            throw ImageError(.cancelled, "the load of \(path) was cancelled")
        }
        let image = try await DecodingWorkers.image(from: data, for: request, coders: coders)
        return ImageLoadResult(image: image, data: data)
    }
}
