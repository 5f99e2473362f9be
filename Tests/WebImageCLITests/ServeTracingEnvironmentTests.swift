import Foundation
import Testing
import WebImageTestSupport

/// `webimage serve` reads the standard `OTEL_*` variables: tracing is off unless
/// `OTEL_TRACES_EXPORTER=otlp`; what this server cannot do stops it, named; a variable it
/// does not read is named in a warning.
@Suite("Serve tracing environment", .timeLimit(.minutes(15)))
struct ServeTracingEnvironmentTests {
    static func serve(environment: [String: String]) async throws -> CommandLineTool.Output {
        let scratch = TemporaryDirectory(prefix: "serve-tracing")
        return try await CommandLineTool.run(["serve", "--insecure-unsigned", "--print-config"], scratch: scratch.url, environment: environment)
    }

    @Test(arguments: [
        ["OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"], ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf"],
        ["OTEL_TRACES_SAMPLER": "xray"], ["OTEL_EXPORTER_OTLP_COMPRESSION": "gzip"],
    ])
    func refusesWhatItCannotDo(extra: [String: String]) async throws {
        let output = try await Self.serve(environment: ["OTEL_TRACES_EXPORTER": "otlp"].merging(extra) { $1 })
        #expect(output.status != 0)
        #expect(extra.keys.allSatisfy { output.standardError.contains($0) }, "\(output.standardError)")
    }

    @Test func refusesAnotherExporter() async throws {
        let output = try await Self.serve(environment: ["OTEL_TRACES_EXPORTER": "zipkin"])
        #expect(output.status != 0)
        #expect(output.standardError.contains("OTEL_TRACES_EXPORTER"), "\(output.standardError)")
    }

    @Test func namesTheVariablesItDoesNotRead() async throws {
        let output = try await Self.serve(environment: ["OTEL_TRACES_EXPORTER": "otlp", "OTEL_METRICS_EXPORTER": "otlp"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.contains("OTEL_METRICS_EXPORTER"))
        #expect(!output.standardError.contains("OTEL_TRACES_EXPORTER"))
    }
}
