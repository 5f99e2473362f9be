import Testing

@testable import WebImageServer

/// The server's own SHA-256 and HMAC against FIPS 180-4's and RFC 4231's test vectors.
@Suite("HMAC-SHA256")
struct HMACSHA256Tests {
    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        // 56 bytes: the padding needs a second block.
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func sha256MatchesTheStandardsVectors(message: String, digest: String) {
        #expect(Self.hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func sha256OfInputGivenInPiecesEqualsTheWhole() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        var hasher = SHA256()
        hasher.update(message[..<3])
        hasher.update(message[3..<40])
        hasher.update(message[40...])
        #expect(hasher.finalize() == SHA256.hash(message))
    }

    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        // A key longer than a block is hashed first.
        (
            [UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
    ])
    func hmacMatchesRFC4231(key: [UInt8], message: String, code: String) {
        let computed = HMACSHA256.authenticationCode(for: Array(message.utf8), key: key)
        #expect(Self.hex(computed) == code)
        #expect(HMACSHA256.isValid(computed, for: Array(message.utf8), key: key))
        var altered = computed
        altered[31] ^= 1
        #expect(!HMACSHA256.isValid(altered, for: Array(message.utf8), key: key))
        #expect(!HMACSHA256.isValid(Array(computed.prefix(16)), for: Array(message.utf8), key: key))
    }
}
