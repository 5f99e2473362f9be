/// Why an ``ImageServerConfiguration`` is refused: ``ImageServerConfiguration/validate()``
/// throws it, and ``ImageServer/run(onRunning:onMetricsRunning:)`` before it listens.
public enum ImageServerConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A signing key — ``ImageServerConfiguration/signingKey`` or one of the
    /// ``ImageServerConfiguration/additionalSigners`` — is empty, so anyone could sign.
    case emptySigningKey
    /// Unsigned URLs (`_`, ``ImageServerConfiguration/allowsUnsignedURLs``) are accepted
    /// beside a signing key, which would then protect nothing.
    case unsignedURLsWithSigningKey

    /// The refusal in a sentence.
    public var description: String {
        switch self {
        case .emptySigningKey: "a signing key is empty"
        case .unsignedURLsWithSigningKey: "unsigned URLs cannot be accepted together with a signing key; give one or the other"
        }
    }
}
