import Foundation
import WebImage

/// The image answered in place of a source that fails — one not found, refused by the
/// address policy, timed out, not an image, or over a source limit — for every request
/// (``ImageServerConfiguration/fallback``) or for the requests naming a preset
/// (``ImageServerConfiguration/presetFallbacks``).
///
/// The fallback goes through the request's own spec (a 300 × 300 fill answers a 300 × 300
/// fallback) and its result is kept in the result cache under a key of its own. It never
/// stands for a refusal of the request itself: a bad signature, a bad spec or a host off
/// the allow-list is answered as without it.
public struct ImageServerFallback: Sendable {
    /// The decoded fallback image.
    public let image: Image
    /// A digest of the file the image was decoded from, part of its results' cache keys, so
    /// that a new fallback file makes new results.
    let digest: String
    /// The status answered with the fallback: 200, or an error status from 400 to 599.
    public var status: Int
    /// The `max-age` of the fallback's `Cache-Control`, in seconds: short, so that caches in
    /// front of the server ask again soon for a source that may be back.
    public var maxAge: Int

    /// The default ``maxAge``: one minute.
    public static let defaultMaxAge = 60

    /// A fallback decoded from the image file's bytes `data`.
    ///
    /// - Parameters:
    ///   - data: The bytes of an image file.
    ///   - status: The status answered with the fallback (200 unless the operator says
    ///     otherwise); ``ImageServerConfiguration/validate()`` refuses one outside 200 and
    ///     400 to 599.
    ///   - maxAge: The `max-age` of its answers, in seconds.
    ///   - coders: The coders that decode `data`.
    /// - Throws: `ImageError` when `data` is not an image the coders decode.
    public init(
        data: Data, status: Int = 200, maxAge: Int = defaultMaxAge, coders: ImageCodersManager = .shared
    ) throws(ImageError) {
        image = try coders.decode(data)
        digest = SHA256.hash(data).prefix(16).map { String(format: "%02x", $0) }.joined()
        self.status = status
        self.maxAge = maxAge
    }

    /// Whether ``status`` is one a fallback may be answered with: 200, or 400 to 599.
    var hasValidStatus: Bool {
        status == 200 || (400...599).contains(status)
    }
}
