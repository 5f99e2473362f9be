import Foundation
import LoopbackHTTPServer
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `webimage serve` reads every setting from its flag, its `WEBIMAGE_*` environment variable
/// and its key in the `--config` file, in that order; a value that does not read, or a key
/// of the file that names no setting, stops it with status 64 naming the setting and where
/// it came from; `--print-config` shows the effective settings with the secrets masked.
@Suite("Serve configuration", .timeLimit(.minutes(15)))
struct ServeConfigurationTests {
    static let key = String(repeating: "0123456789abcdef", count: 4)

    /// Runs `webimage serve` with `arguments`, the settings file `file` (JSON text, as
    /// `--config`) and `environment`.
    static func serve(
        _ arguments: [String], file: String? = nil, environment: [String: String] = [:], in scratch: TemporaryDirectory
    ) async throws -> CommandLineTool.Output {
        var configArguments: [String] = []
        if let file {
            let url = scratch.url.appendingPathComponent("webimage.json")
            try Data(file.utf8).write(to: url)
            configArguments = ["--config", url.path]
        }
        return try await CommandLineTool.run(["serve"] + configArguments + arguments, scratch: scratch.url, environment: environment)
    }

    /// The line of `--print-config` output showing `name`.
    static func line(_ name: String, in output: CommandLineTool.Output) -> String? {
        output.standardOutput.split(separator: "\n").map(String.init).first { $0.hasPrefix(name + " ") }
    }

    @Test(
        arguments: [
            (nil, nil, nil, "32M  (default)"),
            ("1M", nil, nil, "1M  (file "),
            ("1M", "2M", nil, "2M  (environment WEBIMAGE_MAX_SOURCE_BYTES)"),
            ("1M", "2M", "3M", "3M  (flag --max-source-bytes)"),
            (nil, nil, "3M", "3M  (flag --max-source-bytes)"),
        ] as [(String?, String?, String?, String)])
    func flagsOverrideTheEnvironmentWhichOverridesTheFile(file: String?, environment: String?, flag: String?, shown: String) async throws {
        let scratch = TemporaryDirectory(prefix: "serve-precedence")
        let output = try await Self.serve(
            ["--insecure-unsigned", "--print-config"] + (flag.map { ["--max-source-bytes", $0] } ?? []),
            file: file.map { #"{"max-source-bytes": "\#($0)"}"# },
            environment: environment.map { ["WEBIMAGE_MAX_SOURCE_BYTES": $0] } ?? [:], in: scratch)
        #expect(output.status == 0, "\(output.standardError)")
        let line = try #require(Self.line("max-source-bytes", in: output))
        #expect(line.contains(" = " + shown), "\(line)")
        #expect(!output.standardOutput.contains("listening on"))
    }

    @Test func everySettingHasOneNameInEverySource() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-names")
        let file = #"""
            {"port": 9001, "allow-host": ["a.example", "B.example"], "timeout": 2.5, "only-presets": true,
             "preset": "small=resize=10x10,fill", "max-result-pixels": 1000, "memory-limit": "64M"}
            """#
        let output = try await Self.serve(
            ["--insecure-unsigned", "--print-config", "--metrics-port", "9100"], file: file,
            environment: [
                "WEBIMAGE_ALLOW_ADDRESS": "10.0.0.1;fd00::1", "WEBIMAGE_IDLE_TIMEOUT": "3", "WEBIMAGE_DEMO": "no",
                "WEBIMAGE_CACHE_DIR": "/var/cache/webimage-test",
            ],
            in: scratch)
        #expect(output.status == 0, "\(output.standardError)")
        let expected = [
            ("port", "9001  (file "), ("allow-host", #"["a.example", "B.example"]  (file "#), ("timeout", "2.5  (file "),
            ("only-presets", "true  (file "), ("preset", #"["small=resize=10x10,fill"]  (file "#), ("max-result-pixels", "1000  (file "),
            ("memory-limit", "64M  (file "), ("allow-address", #"["10.0.0.1", "fd00::1"]  (environment WEBIMAGE_ALLOW_ADDRESS)"#),
            ("idle-timeout", "3  (environment WEBIMAGE_IDLE_TIMEOUT)"), ("demo", "false  (environment WEBIMAGE_DEMO)"),
            ("metrics-port", "9100  (flag --metrics-port)"), ("insecure-unsigned", "true  (flag --insecure-unsigned)"),
            ("max-operations", "16  (default)"), ("cache-dir", "/var/cache/webimage-test  (environment WEBIMAGE_CACHE_DIR)"),
        ]
        for (name, shown) in expected {
            let line = try #require(Self.line(name, in: output), "\(name) in \(output.standardOutput)")
            #expect(line.contains(" = " + shown), "\(line)")
        }
        #expect(output.standardOutput.split(separator: "\n").count == 53, "one line for each of the 53 settings")
    }

    @Test func printConfigMasksTheKeysAndSalts() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-secrets")
        let salt = "a1b2c3d4"
        let output = try await Self.serve(
            ["--print-config"], file: #"{"salt": ["\#(salt)"]}"#, environment: ["WEBIMAGE_KEY": Self.key], in: scratch)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(!output.standardOutput.contains(Self.key))
        #expect(!output.standardOutput.contains(salt))
        #expect(Self.line("key", in: output)?.contains("[***(64 characters)]  (environment WEBIMAGE_KEY)") == true, "\(output.standardOutput)")
        #expect(Self.line("salt", in: output)?.contains("[***(8 characters)]  (file ") == true, "\(output.standardOutput)")
    }

    @Test(
        arguments: [
            (["--port", "eighty"], nil, [:], "--port is not a whole number"),
            ([], nil, ["WEBIMAGE_PORT": "eighty"], "WEBIMAGE_PORT is not a whole number"),
            ([], #"{"port": "eighty"}"#, [:], "port in "),
            ([], #"{"port": 80.5}"#, [:], "is not a whole number"),
            ([], #"{"max-source-bytes": "lots"}"#, [:], "is not a size"),
            ([], #"{"allow-private-sources": "maybe"}"#, [:], "is not true or false"),
            ([], #"{"allow-host": [1, 2]}"#, [:], "is not a list of texts"),
            (["--timeout", "5"], nil, ["WEBIMAGE_TIMEOUT": "soon"], "WEBIMAGE_TIMEOUT is not a number of seconds"),
            ([], nil, ["WEBIMAGE_CONCURRENCY": "0"], "WEBIMAGE_CONCURRENCY must be at least 1"),
            ([], #"{"max-source-byte": "1M"}"#, [:], #"unknown setting "max-source-byte" (did you mean "max-source-bytes"?)"#),
            ([], #"{"maxSourceBytes": "1M"}"#, [:], #"unknown setting "maxSourceBytes" (did you mean "max-source-bytes"?)"#),
            ([], #"{"limits": {"port": 80}}"#, [:], #"unknown setting "limits""#),
            ([], #"["port", 80]"#, [:], "is not a JSON object"),
            ([], nil, ["WEBIMAGE_FALLBACK_IMAGE": "/nonexistent/fallback.png"], "WEBIMAGE_FALLBACK_IMAGE: cannot read the image /nonexistent/fallback.png"),
            (["--fallback-image", "/dev/null"], nil, [:], "--fallback-image: cannot read the image /dev/null"),
            (["--fallback-status", "302"], nil, [:], "--fallback-status must be 200 or 400 to 599"),
            (["--best-format", "tga"], nil, [:], "--best-format tga is not a format this server writes"),
            (["--preset-fallback-image", "thumb=/dev/null"], nil, [:], "--preset-fallback-image thumb: there is no preset by that name"),
        ] as [([String], String?, [String: String], String)])
    func aValueThatDoesNotReadStopsTheServer(flags: [String], file: String?, environment: [String: String], message: String) async throws {
        let scratch = TemporaryDirectory(prefix: "serve-bad-value")
        let output = try await Self.serve(["--insecure-unsigned", "--port", "0"] + flags, file: file, environment: environment, in: scratch)
        #expect(output.status == 64, "\(flags) \(environment) \(output.standardError)")
        #expect(output.standardError.contains(message), "\(output.standardError)")
        if file != nil, message.hasPrefix("port in") {
            #expect(output.standardError.contains("webimage.json is not a whole number"), "\(output.standardError)")
        }
        #expect(!output.standardOutput.contains("listening on"))
    }

    @Test(
        arguments: [
            (nil, ["WEBIMAGE_KEY": ""], "WEBIMAGE_KEY is empty"),
            (#"{"key": ""}"#, [:], "key in "),
            (#"{"key": [""]}"#, [:], "is empty"),
            (#"{"key": []}"#, [:], "give --key"),
            (#"{"key": "0011"}"#, [:], "must be at least 32 bytes"),
            (#"{"key": ["\#(key)"], "insecure-unsigned": true}"#, [:], "insecure-unsigned in "),
        ] as [(String?, [String: String], String)])
    func aKeyAnyoneCouldGuessIsRefusedFromEverySource(file: String?, environment: [String: String], message: String) async throws {
        let scratch = TemporaryDirectory(prefix: "serve-config-keys")
        for extra in [[], ["--print-config"]] {
            let output = try await Self.serve(["--port", "0"] + extra, file: file, environment: environment, in: scratch)
            #expect(output.status == 64, "\(extra) \(output.standardError)")
            #expect(output.standardError.contains(message), "\(output.standardError)")
            #expect(output.standardOutput.isEmpty, "\(output.standardOutput)")
        }
    }

    @Test func aRunningServerTakesItsLimitAndKeyFromTheFileAndItsFlagsOverTheFile() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-config-running")
        let sources = try await LoopbackHTTPServer.start()
        let png = try ImageServerHarness.png()
        #expect(png.count > 100)
        sources.route("/a.png") { _, response in
            await response.respond(headers: [("Content-Type", "image/png")], body: Array(png))
        }
        let configFile = scratch.url.appendingPathComponent("webimage.json")
        let file = #"""
            {"key": "\#(Self.key)", "salt": "aa", "max-source-bytes": 100, "allow-private-sources": true,
             "port": 0, "cache-dir": "\#(scratch.url.appendingPathComponent("cache").path)"}
            """#
        try Data(file.utf8).write(to: configFile)
        let signedPath = "/resize=10/" + ImageServerHarness.encodeSource(sources.url(for: "/a.png").absoluteString)
        let signer = ImageURLSigner(key: ImageServerKeyTests.bytes(Self.key), salt: [0xaa])
        let client = ImageServerClient()
        for (flags, status) in [([], 413), (["--max-source-bytes", "1M"], 200)] as [([String], Int)] {
            let server = try BackgroundProcess(try BuiltExecutable.url(named: "webimage"), ["serve", "--config", configFile.path] + flags)
            let line = try await server.waitForLine(containing: "listening on")
            let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
            #expect(try await client.get(port: port, "/\(signer.signature(for: signedPath))\(signedPath)").status == status, "\(flags)")
            #expect(try await client.get(port: port, "/_\(signedPath)").status == 403)
            #expect(await server.stop() == 0)
        }
        try await sources.stop()
    }

    @Test func helpNamesTheSourcesAndTheirOrder() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-help")
        let output = try await CommandLineTool.run(["serve", "--help"], scratch: scratch.url)
        #expect(output.status == 0)
        let words = output.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("[WEBIMAGE_MAX_SOURCE_BYTES]"), "\(words)")
        #expect(words.contains("flags first, then WEBIMAGE_* environment variables, then the --config file"), "\(words)")
    }
}
