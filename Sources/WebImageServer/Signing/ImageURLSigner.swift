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

    /// Whether the key is empty (which ``ImageServerConfiguration/validate()`` refuses).
    var hasEmptyKey: Bool { key.isEmpty }

    /// The signature of `path` (`/<spec>/<source>`, as it appears in the URL).
    public func signature(for path: String) -> String {
        var message = salt
        message += Array(path.utf8)
        return Base64URL.encode(HMACSHA256.authenticationCode(for: message, key: key))
    }

    /// Whether `signature` is the signature of `path`: the canonical base64url text of its
    /// MAC, character for character, compared in time that does not depend on where the two
    /// differ.
    ///
    /// The text is compared rather than the bytes it decodes to, because base64url is not
    /// one-to-one: the last character of a 32-byte MAC carries two bits that no byte uses,
    /// and a lenient decoder reads four different characters there as the same MAC. Only
    /// the one text ``signature(for:)`` writes verifies, so that a signed URL has exactly
    /// one spelling (and one cache key in front of the server).
    public func isValid(_ signature: String, for path: String) -> Bool {
        let given = Array(signature.utf8)
        let expected = Array(self.signature(for: path).utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (character, wanted) in zip(given, expected) {
            difference |= character ^ wanted
        }
        return difference == 0
    }
}
