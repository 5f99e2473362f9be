import Foundation
import LoopbackHTTPServer
import WebImageTestSupport

/// A self-signed certificate for 127.0.0.1, generated with the `openssl` command into a
/// temporary folder.
package struct SelfSignedCertificate {
    package let directory = TemporaryDirectory(prefix: "webimage-tls")

    package var certificatePath: String { directory.appending("cert.pem").path }
    package var keyPath: String { directory.appending("key.pem").path }

    package init() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", keyPath, "-out", certificatePath,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard try await ChildProcess(process).waitForExit() == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// The identity for a ``LoopbackHTTPServer``.
    package func identity() throws -> LoopbackTLSIdentity {
        try LoopbackTLSIdentity(certificatePEMFile: certificatePath, privateKeyPEMFile: keyPath)
    }
}
