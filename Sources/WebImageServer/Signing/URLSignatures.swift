/// The signatures a request's path must carry: by the configured key, or by one of the
/// additional keys (key rotation); `_` stands for none when the server accepts unsigned
/// URLs.
///
/// Room Signing/: the URLs' signatures — the keys, HMAC-SHA256 and base64url.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
struct URLSignatures: Sendable {
    /// The signers whose signatures are accepted: the configured key first, then the
    /// additional ones.
    let signers: [ImageURLSigner]
    /// Whether `_` is accepted for a signature.
    let allowsUnsigned: Bool

    /// The signatures `configuration` accepts.
    init(_ configuration: ImageServerConfiguration) {
        signers =
            (configuration.signingKey.map { [ImageURLSigner(key: $0, salt: configuration.signingSalt)] } ?? [])
            + configuration.additionalSigners
        allowsUnsigned = configuration.allowsUnsignedURLs
    }

    /// Checks that `signature` signs `signedPath`.
    ///
    /// - Throws: ``ImageServerError`` 403 when it does not, or when the server has no key
    ///   and `signature` is not an accepted `_`.
    func check(_ signature: String, signs signedPath: String) throws(ImageServerError) {
        if signature == "_", allowsUnsigned { return }
        guard !signers.isEmpty else {
            throw ImageServerError(.forbidden, "unsigned URLs are not accepted and the server has no signing key")
        }
        guard signers.contains(where: { $0.isValid(signature, for: signedPath) }) else {
            throw ImageServerError(.forbidden, "the signature does not match")
        }
    }
}
