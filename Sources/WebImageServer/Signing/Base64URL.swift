import Foundation

/// Base64 with the URL-safe alphabet (`-`, `_`) and no padding, as signatures and encoded
/// sources are written in the image server's paths.
enum Base64URL {
    private static let alphabet = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// `bytes` encoded.
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes `text` encodes; `nil` when it is not base64url.
    static func decode(_ text: String) -> [UInt8]? {
        guard text.unicodeScalars.allSatisfy({ alphabet.contains($0) }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
