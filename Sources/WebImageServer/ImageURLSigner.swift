import Foundation

/// Signs and checks the image server's URLs: the signature segment is the base64url
/// (unpadded) HMAC-SHA256, under the key, of the salt followed by `/<spec>/<source>` —
/// the path after the signature, exactly as sent.
public struct ImageURLSigner: Sendable {
    private let key: [UInt8]
    private let salt: [UInt8]

    /// A signer with `key` and `salt`.
    public init(key: [UInt8], salt: [UInt8] = []) {
        self.key = key
        self.salt = salt
    }

    /// The signature of `path` (`/<spec>/<source>`, as it appears in the URL).
    public func signature(for path: String) -> String {
        var message = salt
        message += Array(path.utf8)
        return Base64URL.encode(HMACSHA256.authenticationCode(for: message, key: key))
    }

    /// Whether `signature` signs `path`, compared in constant time.
    public func isValid(_ signature: String, for path: String) -> Bool {
        guard let given = Base64URL.decode(signature) else { return false }
        var message = salt
        message += Array(path.utf8)
        return HMACSHA256.isValid(Array(given), for: message, key: key)
    }
}
