import Foundation
import Testing
@testable import WebImageServer

/// W3C Trace Context's `traceparent`, the sampler and the `OTEL_*` variables, read as the
/// server reads them.
@Suite struct TraceContextTests {
    @Test func aValidTraceparentIsRead() throws {
        let context = try #require(
            TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", tracestate: "congo=t61rcWkgMzE"))
        #expect(context.traceID.description == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(context.spanID.description == "00f067aa0ba902b7")
        #expect(context.isSampled)
        #expect(context.traceState == "congo=t61rcWkgMzE")
        #expect(context.traceparent == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        #expect(TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")?.isSampled == false)
        // A later version may carry more fields after a dash.
        #expect(TraceContext(traceparent: "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra") != nil)
    }

    @Test(arguments: [
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
    ])
    func anInvalidTraceparentIsIgnored(_ value: String) {
        #expect(TraceContext(traceparent: value) == nil)
    }

    @Test func anOversizedTracestateIsDroppedWhole() throws {
        let members = (0..<33).map { "k\($0)=v" }.joined(separator: ",")
        let context = try #require(TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", tracestate: members))
        #expect(context.traceState == nil)
    }

    @Test func theSamplerDecidesByParentAndRatio() throws {
        let id = try #require(TraceID(high: 1, low: UInt64.max))
        let low = try #require(TraceID(high: 1, low: 1))
        let sampledParent = TraceContext(traceID: id, spanID: try #require(SpanID(1)), flags: 1)
        let unsampledParent = TraceContext(traceID: id, spanID: try #require(SpanID(1)), flags: 0)
        #expect(TraceSampler.parentBased(root: .alwaysOff).samples(id, parent: sampledParent))
        #expect(!TraceSampler.parentBased(root: .alwaysOn).samples(id, parent: unsampledParent))
        #expect(!TraceSampler.parentBased(root: .alwaysOff).samples(id, parent: nil))
        #expect(TraceSampler.traceIDRatio(0.5).samples(low, parent: nil))
        #expect(!TraceSampler.traceIDRatio(0.5).samples(id, parent: nil))
        #expect(!TraceSampler.traceIDRatio(0).samples(low, parent: nil))
    }

    @Test func tracingIsOffUnlessTheExporterIsOTLP() throws {
        #expect(try OTLPConfiguration(environment: [:]) == nil)
        #expect(try OTLPConfiguration(environment: ["OTEL_TRACES_EXPORTER": "none"]) == nil)
        #expect(try OTLPConfiguration(environment: ["OTEL_TRACES_EXPORTER": "otlp", "OTEL_SDK_DISABLED": "true"]) == nil)
        let defaults = try #require(try OTLPConfiguration(environment: ["OTEL_TRACES_EXPORTER": "otlp"]))
        #expect(defaults.endpoint.absoluteString == "http://localhost:4318/v1/traces")
        #expect(defaults.sampler == .parentBased(root: .alwaysOn))
        #expect(defaults.resourceAttributes.first?.value == "webimage")
    }

    @Test func theStandardVariablesAreRead() throws {
        let configuration = try #require(
            try OTLPConfiguration(environment: [
                "OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector.example:4318/",
                "OTEL_EXPORTER_OTLP_HEADERS": "a=1,b=2", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "b=3",
                "OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.25",
                "OTEL_RESOURCE_ATTRIBUTES": "service.name=from-resource,host.name=a%2Cb", "OTEL_EXPORTER_OTLP_TIMEOUT": "2500",
            ]))
        #expect(configuration.endpoint.absoluteString == "https://collector.example:4318/v1/traces")
        #expect(configuration.headers.map { "\($0.name)=\($0.value)" } == ["a=1", "b=3"])
        #expect(configuration.sampler == .parentBased(root: .traceIDRatio(0.25)))
        #expect(configuration.resourceAttributes.map { "\($0.key)=\($0.value)" } == ["service.name=from-resource", "host.name=a,b"])
        #expect(configuration.timeout == .milliseconds(2500))
        let traces = try #require(
            try OTLPConfiguration(environment: [
                "OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://ignored:4318",
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:9999/custom/path",
            ]))
        #expect(traces.endpoint.absoluteString == "http://collector:9999/custom/path", "the traces endpoint is used as given")
    }

    @Test(arguments: [
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"), ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc"),
        ("OTEL_TRACES_EXPORTER", "zipkin"), ("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip"), ("OTEL_TRACES_SAMPLER", "jaeger_remote"),
        ("OTEL_TRACES_SAMPLER_ARG", "2"), ("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"),
        ("OTEL_EXPORTER_OTLP_HEADERS", "novalue"),
    ])
    func whatThisServerCannotDoIsNamedNotIgnored(_ variable: String, _ value: String) {
        var environment = ["OTEL_TRACES_EXPORTER": "otlp"]
        environment[variable] = variable == "OTEL_TRACES_EXPORTER" ? "otlp,\(value)" : value
        #expect(throws: TracingConfigurationError.self) { try OTLPConfiguration(environment: environment) }
        do {
            _ = try OTLPConfiguration(environment: environment)
        } catch {
            #expect(error.variable == variable)
        }
    }

    @Test func unreadVariablesAreNamed() {
        let unread = OTLPConfiguration.unreadVariables(in: [
            "OTEL_TRACES_EXPORTER": "otlp", "OTEL_METRICS_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_CERTIFICATE": "/ca.pem", "PATH": "/bin",
        ])
        #expect(unread == ["OTEL_EXPORTER_OTLP_CERTIFICATE", "OTEL_METRICS_EXPORTER"])
    }
}
