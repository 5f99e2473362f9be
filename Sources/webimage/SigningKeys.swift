#if Server
import ArgumentParser
import WebImageServer

/// The signing keys and salts of `webimage serve`, read from the flags or the environment
/// and checked so that a server never starts with a key anyone could guess: each key at
/// least ``minimumKeyBytes`` bytes of hex, no empty key or salt, and no key together with
/// `--insecure-unsigned`.
enum SigningKeys {
    /// The shortest key accepted, in bytes (HMAC-SHA256's output size).
    static let minimumKeyBytes = 32

    /// The signers `keys` and `salts` (hex, from the flags) describe, or with no `--key`
    /// the `WEBIMAGE_KEY` and `WEBIMAGE_SALT` of `environment`: one signer per key, with
    /// the salt at the same position (or the one salt given, or none). Any one of them
    /// verifies a URL, so that a key can be rotated.
    ///
    /// - Throws: `ValidationError` naming the setting that is wrong (the process then
    ///   exits with status 64).
    static func signers(keys: [String], salts: [String], environment: [String: String], insecureUnsigned: Bool) throws -> [ImageURLSigner] {
        var keyTexts = keys.map { ("--key", $0) }
        var saltTexts = salts.map { ("--salt", $0) }
        if keyTexts.isEmpty, let key = environment["WEBIMAGE_KEY"] {
            keyTexts = [("WEBIMAGE_KEY", key)]
        }
        if saltTexts.isEmpty, let salt = environment["WEBIMAGE_SALT"] {
            saltTexts = [("WEBIMAGE_SALT", salt)]
        }
        if insecureUnsigned {
            if let (setting, _) = keyTexts.first {
                throw ValidationError("--insecure-unsigned cannot be used with a signing key (\(setting)); give one or the other")
            }
            return []
        }
        guard !keyTexts.isEmpty else {
            throw ValidationError("give --key (or WEBIMAGE_KEY), or --insecure-unsigned for local use")
        }
        let keyBytes = try keyTexts.map { setting, text in
            let bytes = try hex(text, setting: setting)
            guard bytes.count >= minimumKeyBytes else {
                throw ValidationError("\(setting) must be at least \(minimumKeyBytes) bytes (\(2 * minimumKeyBytes) hex digits); it has \(bytes.count)")
            }
            return bytes
        }
        let saltBytes = try saltTexts.map { setting, text in try hex(text, setting: setting) }
        guard saltBytes.count <= 1 || saltBytes.count == keyBytes.count else {
            throw ValidationError("give one --salt, or one per --key (\(keyBytes.count)); there are \(saltBytes.count)")
        }
        return keyBytes.enumerated().map { index, key in
            ImageURLSigner(key: key, salt: saltBytes.count == 1 ? saltBytes[0] : saltBytes.isEmpty ? [] : saltBytes[index])
        }
    }

    /// The bytes of `text`, a non-empty hex string given as `setting`.
    private static func hex(_ text: String, setting: String) throws -> [UInt8] {
        guard !text.isEmpty else { throw ValidationError("\(setting) is empty") }
        guard let bytes = ServeCommand.hexBytes(text) else { throw ValidationError("\(setting) is not hexadecimal") }
        return bytes
    }
}
#endif
