import NIOSSL

/// A certificate chain and private key the server presents for HTTPS.
public struct LoopbackTLSIdentity: Sendable {
    let configuration: TLSConfiguration

    /// Loads a PEM certificate and a PEM private key from files.
    public init(certificatePEMFile: String, privateKeyPEMFile: String) throws {
        let certificates = try NIOSSLCertificate.fromPEMFile(certificatePEMFile)
        let key = try NIOSSLPrivateKey(file: privateKeyPEMFile, format: .pem)
        configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificates.map { .certificate($0) },
            privateKey: .privateKey(key)
        )
    }
}
