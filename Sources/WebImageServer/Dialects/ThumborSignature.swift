import Foundation

/// thumbor's URL signature: the base64url HMAC-SHA1, under the security key, of the path
/// after the signature segment (without its leading `/`), with base64's `=` padding kept —
/// 28 characters, as libthumbor's `CryptoURL` writes it.
enum ThumborSignature {
    /// The signature of `path` under `key`.
    static func signature(key: [UInt8], path: String) -> String {
        Data(HMACSHA1.authenticationCode(for: Array(path.utf8), key: key)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
    }

    /// Whether `signature` is the text ``signature(key:path:)`` writes, compared in time that
    /// does not depend on where the two differ.
    static func matches(_ signature: String, key: [UInt8], path: String) -> Bool {
        let given = Array(signature.utf8)
        let expected = Array(Self.signature(key: key, path: path).utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Whether `segment` has the shape of a thumbor signature: 28 base64url characters
    /// ending in `=` (neither the native nor imgproxy's signatures are padded).
    static func hasShape(_ segment: Substring) -> Bool {
        segment.utf8.count == 28 && segment.hasSuffix("=")
            && segment.dropLast().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
