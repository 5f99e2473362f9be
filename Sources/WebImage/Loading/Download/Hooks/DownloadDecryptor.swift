import Foundation

/// Turns the downloaded bytes into the bytes that are decoded (SDWebImage's
/// `SDWebImageDownloaderDecryptor`): for bodies sent Base64-encoded, compressed or
/// encrypted. Returning `nil` fails the download with `ImageError.Code.badImageData`.
///
/// Set one on the downloader (``ImageDownloaderConfiguration/decryptor``) for every download, or
/// on a request (``ImageLoadRequest/decryptor``, ``ImageRequest/decryptor``) to replace the
/// downloader's for that request. Requests for one URL share a transfer only when they use
/// the same decryptor instance. A download with a decryptor is not decoded progressively,
/// and its callers (and the cache) get the decrypted bytes.
///
/// ```swift
/// configuration.decryptor = .base64
/// ```
///
/// It runs once per download, on the library's decoding threads.
public final class DownloadDecryptor: Sendable {
    /// Returns the bytes to decode, or `nil` when `data` cannot be decrypted.
    public typealias Decrypt = @Sendable (_ data: Data, _ response: DownloadResponseHead) -> Data?

    private let decrypt: Decrypt

    /// A decryptor that runs `decrypt` on each downloaded body.
    public init(_ decrypt: @escaping Decrypt) {
        self.decrypt = decrypt
    }

    /// Decodes a Base64 body, skipping characters outside the Base64 alphabet such as line
    /// breaks (SDWebImage's `base64Decryptor`).
    public static let base64 = DownloadDecryptor { data, _ in
        Data(base64Encoded: data, options: .ignoreUnknownCharacters)
    }

    /// The bytes to decode for `data`, the body of `response`, or `nil` when it cannot be
    /// decrypted.
    public func decrypted(_ data: Data, response: DownloadResponseHead) -> Data? {
        decrypt(data, response)
    }
}
