/// imgproxy's URL signature: the base64url (unpadded) HMAC-SHA256, under a key, of a salt
/// followed by the path after the signature segment, truncated to a number of bytes
/// before it is encoded.
enum ImgproxySignature {
    /// The signature of `path` under `key` and `salt`, of `size` bytes (1 to 32).
    static func signature(key: [UInt8], salt: [UInt8], path: String, size: Int) -> String {
        let mac = HMACSHA256.authenticationCode(for: salt + Array(path.utf8), key: key)
        return Base64URL.encode(Array(mac.prefix(max(1, min(size, mac.count)))))
    }

    /// Whether `signature` is the text ``signature(key:salt:path:size:)`` writes, compared
    /// in time that does not depend on where the two differ.
    static func matches(_ signature: String, key: [UInt8], salt: [UInt8], path: String, size: Int) -> Bool {
        let given = Array(signature.utf8)
        let expected = Array(Self.signature(key: key, salt: salt, path: path, size: size).utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
