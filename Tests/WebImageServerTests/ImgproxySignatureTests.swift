import Foundation
import Testing
@testable import WebImageServer

/// imgproxy's signatures against vectors computed apart from the server, with Python's
/// `hmac` and `base64` modules:
/// `base64.urlsafe_b64encode(hmac.new(key, salt + path, sha256).digest()[:size]).rstrip(b"=")`.
@Suite("imgproxy signatures")
struct ImgproxySignatureTests {
    static let key = hex("943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881")
    static let salt = hex("520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5")
    static let otherKey = hex("abcdef0123456789abcdef0123456789")
    static let otherSalt = hex("00ff")
    static let plainPath = "/rs:fit:300:300/plain/http://img.example.com/pretty/image.jpg"
    static let encodedPath = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"

    static func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { offset in
            let start = text.index(text.startIndex, offsetBy: offset)
            return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test func matchesIndependentVectors() {
        #expect(
            ImgproxySignature.signature(key: Self.key, salt: Self.salt, path: Self.plainPath, size: 32)
                == "m3k5QADfcKPDj-SDI2AIogZbC3FlAXszuwhtWXYqavc")
        #expect(ImgproxySignature.signature(key: Self.key, salt: Self.salt, path: Self.plainPath, size: 8) == "m3k5QADfcKM")
        #expect(
            ImgproxySignature.signature(key: Self.key, salt: Self.salt, path: Self.encodedPath, size: 32)
                == "90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40")
        #expect(ImgproxySignature.signature(key: Self.key, salt: Self.salt, path: Self.encodedPath, size: 8) == "90UxdwGRAI0")
        #expect(
            ImgproxySignature.signature(key: Self.otherKey, salt: Self.otherSalt, path: Self.plainPath, size: 32)
                == "YfAn58rwwKcEO2x_JcPWeJX6eg0VjXrGEurqcxiX-dI")
        #expect(ImgproxySignature.signature(key: Self.otherKey, salt: Self.otherSalt, path: Self.plainPath, size: 4) == "YfAn5w")
    }

    static func dialect(size: Int = 32) throws -> ImgproxyDialect {
        var configuration = ImgproxyConfiguration()
        configuration.keys = [Self.key, Self.otherKey]
        configuration.salts = [Self.salt, Self.otherSalt]
        configuration.signatureSize = size
        return try ImgproxyDialect(configuration, hasWatermark: false)
    }

    @Test func acceptsAnyPairOfKeyAndSalt() throws {
        let dialect = try Self.dialect()
        try dialect.checkSignature("m3k5QADfcKPDj-SDI2AIogZbC3FlAXszuwhtWXYqavc", signs: Self.plainPath)
        try dialect.checkSignature("YfAn58rwwKcEO2x_JcPWeJX6eg0VjXrGEurqcxiX-dI", signs: Self.plainPath)
        let read = try dialect.request(path: "/90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40" + Self.encodedPath, accept: nil)
        #expect(read.source.absoluteString == "http://example.com/images/curiosity.jpg")
        // A key with another pair's salt, a truncated signature, another path, no text.
        var other = ImgproxyConfiguration()
        other.keys = [Self.key]
        other.salts = [Self.otherSalt]
        let crossed = try ImgproxyDialect(other, hasWatermark: false)
        for (dialect, signature, path) in [
            (crossed, "m3k5QADfcKPDj-SDI2AIogZbC3FlAXszuwhtWXYqavc", Self.plainPath),
            (dialect, "m3k5QADfcKM", Self.plainPath),
            (dialect, "m3k5QADfcKPDj-SDI2AIogZbC3FlAXszuwhtWXYqavc", Self.encodedPath),
            (dialect, "insecure", Self.plainPath),
        ] {
            #expect(throws: ImageServerError(.forbidden, "invalid signature")) { try dialect.checkSignature(signature, signs: path) }
        }
    }

    @Test func truncatedSignatures() throws {
        let dialect = try Self.dialect(size: 8)
        try dialect.checkSignature("m3k5QADfcKM", signs: Self.plainPath)
        try dialect.checkSignature("90UxdwGRAI0", signs: Self.encodedPath)
        #expect(throws: ImageServerError.self) { try dialect.checkSignature("m3k5QADfcKPDj-SDI2AIogZbC3FlAXszuwhtWXYqavc", signs: Self.plainPath) }
        #expect(throws: ImageServerError.self) { try dialect.checkSignature("m3k5QADfcKN", signs: Self.plainPath) }
    }

    @Test func configurationRefusesWhatImgproxyWouldNotRun() {
        var configuration = ImageServerConfiguration(cacheDirectory: URL(fileURLWithPath: "/nonexistent"))
        configuration.dialects = [.native, .imgproxy]
        configuration.allowsUnsignedURLs = true
        configuration.imgproxy.keys = [Self.key]
        #expect(throws: ImageServerConfigurationError.badImgproxyKeys) { try configuration.validate() }
        configuration.imgproxy.salts = [Self.salt]
        configuration.imgproxy.signatureSize = 33
        #expect(throws: ImageServerConfigurationError.badImgproxySignatureSize(33)) { try configuration.validate() }
        configuration.imgproxy.signatureSize = 8
        configuration.presets = ["thumb": "resize=10"]
        configuration.onlyPresets = true
        #expect(throws: ImageServerConfigurationError.onlyPresetsWithoutImgproxyPresets) { try configuration.validate() }
        configuration.imgproxy.onlyPresets = true
        #expect(throws: Never.self) { try configuration.validate() }
        configuration.dialects = []
        #expect(throws: ImageServerConfigurationError.noDialect) { try configuration.validate() }
    }

    @Test func anyTextWithoutAKey() throws {
        let dialect = try ImgproxyDialect(ImgproxyConfiguration(), hasWatermark: false)
        for signature in ["insecure", "_", "anything", "m3k5QADfcKM"] {
            try dialect.checkSignature(signature, signs: Self.plainPath)
        }
    }
}
