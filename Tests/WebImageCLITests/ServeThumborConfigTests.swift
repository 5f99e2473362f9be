import Foundation
import Testing
import WebImageTestSupport

/// `webimage serve --dialect thumbor --thumbor-config FILE` reads thumbor's configuration
/// file and names every key it does not apply: a warning for those that only tune thumbor's
/// own process, a refusal for any other (unless at thumbor's default).
@Suite("Serve thumbor configuration", .timeLimit(.minutes(15)))
struct ServeThumborConfigTests {
    static func serve(config: String?, extra: [String] = []) async throws -> CommandLineTool.Output {
        let scratch = TemporaryDirectory(prefix: "serve-thumbor")
        var arguments = ["serve", "--dialect", "thumbor", "--print-config"] + extra
        if let config {
            let file = scratch.url.appendingPathComponent("thumbor.conf")
            try Data(config.utf8).write(to: file)
            arguments += ["--thumbor-config", file.path]
        }
        return try await CommandLineTool.run(arguments, scratch: scratch.url, environment: [:])
    }

    @Test func readsThumborsFileAndWarnsAboutProcessTuning() async throws {
        let config = """
            # thumbor.conf
            SECURITY_KEY = 'my-secret-key'
            ALLOW_UNSAFE_URL = False
            QUALITY = 85  # a comment
            MAX_WIDTH = 2000
            AUTO_WEBP = True
            MAX_AGE = 24 * 60 * 60
            RESPECT_ORIENTATION = True
            STORAGE = 'thumbor.storages.file_storage'
            DETECTORS = [
            ]
            FILTERS = [
                'thumbor.filters.quality',
                'thumbor.filters.format',
            ]
            """
        let output = try await Self.serve(config: config)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.contains("STORAGE"))
        #expect(!output.standardError.contains("RESPECT_ORIENTATION"))
        #expect(output.standardOutput.contains("thumbor-config"))
    }

    @Test func thumborsDefaultsWithoutAFile() async throws {
        let output = try await Self.serve(config: nil)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.contains("MY_SECURE_KEY"))
        #expect(output.standardError.contains("RESPECT_ORIENTATION"))
    }

    @Test(arguments: [
        "NOT_A_THUMBOR_KEY = 1", "AUTO_AVIF = True", "ALLOWED_SOURCES = ['example.com']", "QUALITY = 101", "QUALITY = 'high'",
        "SECURITY_KEY = open('/etc/key').read()", "MAX_WIDTH = [1,",
    ])
    func refusesWhatItCannotApply(line: String) async throws {
        let output = try await Self.serve(config: "SECURITY_KEY = 'k'\n" + line + "\n")
        #expect(output.status != 0)
        let key = String(line.prefix { $0 != " " })
        #expect(output.standardError.contains(key) || output.standardError.contains("line 2"), "\(output.standardError)")
    }

    @Test func refusesAThumborFileWithoutTheDialect() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-thumbor")
        let output = try await CommandLineTool.run(
            ["serve", "--insecure-unsigned", "--thumbor-config", "/nonexistent.conf", "--print-config"], scratch: scratch.url, environment: [:])
        #expect(output.status != 0)
        #expect(output.standardError.contains("thumbor"))
    }
}
