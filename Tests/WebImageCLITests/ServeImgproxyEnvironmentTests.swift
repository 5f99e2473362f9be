import Foundation
import Testing
import WebImageTestSupport

/// `webimage serve --dialect imgproxy` reads imgproxy's `IMGPROXY_*` variables and names
/// every one it does not apply: a warning for those that only tune imgproxy's own process,
/// a refusal for any other.
@Suite("Serve imgproxy environment", .timeLimit(.minutes(15)))
struct ServeImgproxyEnvironmentTests {
    static let pair = [
        "IMGPROXY_KEY": "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881",
        "IMGPROXY_SALT": "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5",
    ]

    static func serve(_ arguments: [String], environment: [String: String]) async throws -> CommandLineTool.Output {
        let scratch = TemporaryDirectory(prefix: "serve-imgproxy")
        return try await CommandLineTool.run(["serve"] + arguments, scratch: scratch.url, environment: environment)
    }

    @Test func warnsAboutProcessTuningAndStartsWithoutANativeKey() async throws {
        let output = try await Self.serve(
            ["--dialect", "imgproxy", "--print-config"], environment: Self.pair.merging(["IMGPROXY_WORKERS": "4"]) { $1 })
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.contains("IMGPROXY_WORKERS"))
        #expect(output.standardOutput.contains(#"dialect                 = ["imgproxy"]  (flag --dialect)"#))
    }

    @Test(arguments: [
        ["IMGPROXY_LOCAL_FILESYSTEM_ROOT": "/"], ["IMGPROXY_NOT_A_SETTING": "1"], ["IMGPROXY_SIGNATURE_SIZE": "40"],
        ["IMGPROXY_KEYS": "abcd,ef01", "IMGPROXY_SALTS": "00"], ["IMGPROXY_KEY": "xyz", "IMGPROXY_SALT": "00"],
    ])
    func refusesWhatItCannotApply(extra: [String: String]) async throws {
        let output = try await Self.serve(["--dialect", "imgproxy", "--print-config"], environment: Self.pair.merging(extra) { $1 })
        #expect(output.status != 0)
        #expect(extra.keys.contains { output.standardError.contains($0) }, "\(output.standardError)")
    }

    @Test func refusesAnUnknownDialect() async throws {
        let output = try await Self.serve(["--dialect", "imagor", "--insecure-unsigned", "--print-config"], environment: [:])
        #expect(output.status != 0)
        #expect(output.standardError.contains("imagor"))
    }

    @Test func ignoresImgproxyVariablesWithoutTheDialect() async throws {
        let output = try await Self.serve(["--insecure-unsigned", "--print-config"], environment: ["IMGPROXY_NOT_A_SETTING": "1"])
        #expect(output.status == 0, "\(output.standardError)")
    }
}
