#if Server
import ArgumentParser
import WebImageServer

/// The signing keys and salts of `webimage serve`, from whichever source of
/// ``ServerSettings`` gave them, checked so that a server never starts with a key anyone could guess: each key at
/// least ``minimumKeyBytes`` bytes of hex, no empty key or salt, and no key together with
/// `--insecure-unsigned`.
enum SigningKeys {
    /// The shortest key accepted, in bytes (HMAC-SHA256's output size).
    static let minimumKeyBytes = 32

    /// The signers `keys` and `salts` describe (hex texts, each with the name of the
    /// setting it came from: `--key`, `WEBIMAGE_KEY`, `key in FILE`): one signer per key,
    /// with the salt at the same position (or the one salt given, or none). Any one of them
    /// verifies a URL, so that a key can be rotated. `insecureUnsigned` names the setting
    /// that turned unsigned URLs on, if one did: then there must be no key.
    ///
    /// - Throws: `ValidationError` naming the setting that is wrong (the process then
    ///   exits with status 64).
    static func signers(keys keyTexts: [(String, String)], salts saltTexts: [(String, String)], insecureUnsigned: String?) throws -> [ImageURLSigner] {
        if let insecureUnsigned {
            if let (setting, _) = keyTexts.first {
                throw ValidationError("\(insecureUnsigned) cannot be used with a signing key (\(setting)); give one or the other")
            }
            return []
        }
        guard !keyTexts.isEmpty else {
            throw ValidationError("give --key (or WEBIMAGE_KEY, or key in the --config file), or --insecure-unsigned for local use")
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
            throw ValidationError("give one --salt, or one per --key (\(keyBytes.count)); there are \(saltBytes.count) (\(saltTexts[0].0))")
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
