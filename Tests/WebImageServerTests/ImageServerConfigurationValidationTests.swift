import Foundation
import NIOConcurrencyHelpers
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport

/// The library refuses, as the command-line tool does, a configuration with an empty
/// signing key or with unsigned URLs beside a key: `validate()` names the rule, and `run`
/// throws it before anything listens.
@Suite("ImageServer configuration rules", .serialized, .timeLimit(.minutes(15)))
struct ImageServerConfigurationValidationTests {
    static func configuration(_ configure: (inout ImageServerConfiguration) -> Void) -> ImageServerConfiguration {
        var configuration = ImageServerConfiguration(cacheDirectory: FileManager.default.temporaryDirectory)
        configure(&configuration)
        return configuration
    }

    @Test func anEmptyKeyIsRefused() {
        #expect(throws: ImageServerConfigurationError.emptySigningKey) {
            try Self.configuration { $0.signingKey = [] }.validate()
        }
        #expect(throws: ImageServerConfigurationError.emptySigningKey) {
            try Self.configuration {
                $0.signingKey = Array("secret key".utf8)
                $0.additionalSigners = [ImageURLSigner(key: [], salt: Array("salt".utf8))]
            }.validate()
        }
    }

    @Test func unsignedURLsBesideAKeyAreRefused() {
        #expect(throws: ImageServerConfigurationError.unsignedURLsWithSigningKey) {
            try Self.configuration {
                $0.signingKey = Array("secret key".utf8)
                $0.allowsUnsignedURLs = true
            }.validate()
        }
        #expect(throws: ImageServerConfigurationError.unsignedURLsWithSigningKey) {
            try Self.configuration {
                $0.additionalSigners = [ImageURLSigner(key: Array("secret key".utf8))]
                $0.allowsUnsignedURLs = true
            }.validate()
        }
    }

    @Test func aKeyOrUnsignedURLsAloneAreAccepted() throws {
        try Self.configuration { $0.signingKey = Array("secret key".utf8) }.validate()
        try Self.configuration { $0.additionalSigners = [ImageURLSigner(key: Array("secret key".utf8))] }.validate()
        try Self.configuration { $0.allowsUnsignedURLs = true }.validate()
        // No key and no unsigned URLs: a server that refuses every image (403), as before.
        try Self.configuration { _ in }.validate()
    }

    @Test func runThrowsBeforeListening() async throws {
        let folder = TemporaryDirectory(prefix: "image-server-rules")
        var configuration = ImageServerConfiguration(cacheDirectory: folder.url)
        configuration.port = 0
        configuration.signingKey = []
        let listened = NIOLockedValueBox(false)
        await #expect(throws: ImageServerConfigurationError.emptySigningKey) {
            try await ImageServer(configuration: configuration).run(onRunning: { _ in listened.withLockedValue { $0 = true } })
        }
        #expect(!listened.withLockedValue { $0 })
    }
}
