import Foundation

/// Loads `data:` URLs (RFC 2397): the bytes are in the URL itself, base64 or percent-encoded.
public struct DataURLImageLoader: ImageLoader {
    /// The coders that decode the bytes.
    public let coders: ImageCodersManager

    /// Creates a loader that decodes with `coders`.
    public init(coders: ImageCodersManager = .shared) {
        self.coders = coders
    }

    /// Whether `url` is a `data:` URL.
    public func canLoad(_ url: URL) -> Bool {
        url.scheme?.lowercased() == "data"
    }

    /// Decodes the bytes the URL carries.
    ///
    /// - Throws: `ImageError.Code.invalidURL` for a malformed `data:` URL, or a decoding error.
    public func loadImage(_ request: ImageLoadRequest) async throws(ImageError) -> ImageLoadResult {
        let data = try Self.payload(of: request.url)
        request.progress?(0, Int64(data.count))
        request.progress?(Int64(data.count), Int64(data.count))
        if Task.isCancelled {
            throw ImageError(.cancelled, "the load of a data URL was cancelled")
        }
        let image = try await DecodingWorkers.image(from: data, for: request, coders: coders)
        return ImageLoadResult(image: image, data: data)
    }

    /// The bytes of a `data:[<media type>][;base64],<data>` URL.
    static func payload(of url: URL) throws(ImageError) -> Data {
        let text = url.absoluteString
        guard text.lowercased().hasPrefix("data:"), let comma = text.firstIndex(of: ",") else {
            throw ImageError(.invalidURL, "a data URL needs the form data:[<media type>][;base64],<data>")
        }
        let header = text[text.index(text.startIndex, offsetBy: 5)..<comma].lowercased()
        let body = text[text.index(after: comma)...]
        guard let bytes = body.percentDecodedBytes.map({ Data($0) }) else {
            throw ImageError(.invalidURL, "the percent-encoded data of a data URL is malformed")
        }
        guard header.hasSuffix(";base64") else {
            return bytes
        }
        guard let data = Data(base64Encoded: bytes, options: .ignoreUnknownCharacters) else {
            throw ImageError(.invalidURL, "the base64 data of a data URL is malformed")
        }
        return data
    }
}
