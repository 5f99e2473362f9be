import Foundation
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("MD5")
struct MD5Tests {
    @Test(
        "matches the RFC 1321 test suite",
        arguments: [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
        ])
    func rfcVectors(input: String, expected: String) {
        #expect(MD5.hexDigest(of: input) == expected)
    }

    @Test("matches md5sum at every padding boundary")
    func paddingBoundaries() async throws {
        for length in [55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000] {
            let input = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            #expect(MD5.hexDigest(of: input) == (try await md5sum(input)), "length \(length)")
        }
    }

    @Test("hashes the UTF-8 bytes of non-ASCII keys")
    func unicode() async throws {
        let key = "https://example.com/über/画像.png"
        #expect(MD5.hexDigest(of: key) == (try await md5sum(key)))
    }

    /// The hex digest `md5sum` prints for `input`. Input and output are files, not pipes: a
    /// pipe's end inherited by a child another test spawns at the same moment would keep
    /// `md5sum` from ever seeing the end of its input.
    private func md5sum(_ input: String) async throws -> String {
        let folder = TemporaryDirectory(prefix: "md5sum")
        let inputFile = folder.appending("input"), outputFile = folder.appending("output")
        try Data(input.utf8).write(to: inputFile)
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/md5sum")
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        try await ChildProcess(process).waitForExit()
        return String(decoding: try Data(contentsOf: outputFile).prefix(32), as: UTF8.self)
    }
}
