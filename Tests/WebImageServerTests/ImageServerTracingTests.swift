import Foundation
import Testing
import Tracing
import WebImage
@testable import WebImageServer
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// The server's spans, exported by its own OTLP/JSON exporter to a real receiver on a
/// loopback port, joined to the caller's trace by `traceparent`.
@Suite("Image server tracing", .serialized, .timeLimit(.minutes(10)))
struct ImageServerTracingTests {
    /// The exporter's configuration, read from the standard variables as `webimage serve`
    /// reads them, aimed at `receiver`.
    static func tracer(to receiver: OTLPReceiver) throws -> OTLPTracer {
        let configuration = try #require(
            try OTLPConfiguration(environment: [
                "OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(receiver.port)",
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_SERVICE_NAME": "webimage-test",
                "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=test", "OTEL_EXPORTER_OTLP_HEADERS": "x-api-key=secret%20key",
                "OTEL_BSP_SCHEDULE_DELAY": "50",
            ]))
        return OTLPTracer(configuration: configuration)
    }

    /// Waits, within a generous bound, until `receiver` has spans that `done` accepts.
    static func spans(from receiver: OTLPReceiver, until done: ([ReceivedSpan]) -> Bool) async throws -> [ReceivedSpan] {
        for _ in 0..<3_000 {
            let spans = receiver.spans
            if done(spans) { return spans }
            try await Task.sleep(for: .milliseconds(20))
        }
        return receiver.spans
    }

    @Test func oneRequestIsASpanTreeJoinedToTheCallersTrace() async throws {
        let receiver = try await OTLPReceiver.start()
        let tracer = try Self.tracer(to: receiver)
        let callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
        let callerSpan = "00f067aa0ba902b7"
        let stages = ["request", "cache.read", "lookup", "fetch", "decode", "transform", "encode", "cache.write"]
        do {
            try await ImageServerHarness.run(tracer: tracer) { harness in
                harness.serve("/a.png", try ImageServerHarness.png(width: 64, height: 48))
                let path = harness.path("resize=32|format=webp,q=80", source: "/a.png")
                let answer = try await harness.get(
                    path, headers: [("traceparent", "00-\(callerTrace)-\(callerSpan)-01"), ("tracestate", "vendor=opaque")])
                #expect(answer.status == 200)
                let spans = try await Self.spans(from: receiver) { spans in
                    Set(stages).isSubset(of: spans.filter { $0.traceID == callerTrace }.map(\.name))
                }
                let trace = spans.filter { $0.traceID == callerTrace }
                #expect(trace.map(\.name).sorted() == stages.sorted(), "one span per stage, once each")
                let request = try #require(trace.first { $0.name == "request" })
                #expect(request.parentSpanID == callerSpan, "the caller's span is the request's parent")
                #expect(request.kind == 2, "a server span")
                #expect(request.attributes["http.request.method"] == "GET")
                #expect(request.attributes["url.path"] == path)
                #expect(request.attributes["http.response.status_code"] == "200")
                #expect(request.resource["service.name"] == "webimage-test")
                #expect(request.resource["deployment.environment"] == "test")
                for stage in trace where stage.name != "request" {
                    #expect(stage.parentSpanID == request.spanID, "\(stage.name) is a child of the request")
                    #expect(stage.start >= request.start && stage.end <= request.end, "\(stage.name) lies within the request")
                    #expect(stage.kind == 1)
                }
                let byName = Dictionary(trace.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
                #expect(byName["cache.read"]?.attributes["webimage.cache.outcome"] == "miss")
                #expect(byName["lookup"]?.attributes["server.address"] == "127.0.0.1")
                #expect(byName["fetch"]?.attributes["server.address"] == "127.0.0.1")
                #expect(byName["decode"]?.attributes["webimage.decode.format"] == "png")
                #expect(byName["decode"]?.attributes["webimage.decode.where"] == "in_process")
                #expect(byName["decode"]?.attributes["webimage.decode.pixels"] == "3072")
                #expect(byName["transform"]?.attributes["webimage.transform.pixels"] == "\(32 * 24)")
                #expect(byName["encode"]?.attributes["webimage.encode.format"] == "webp")
                #expect(byName["encode"]?.attributes["webimage.encode.bytes"] == "\(answer.body.count)")
                #expect(byName["cache.write"]?.attributes["webimage.cache.bytes"] == "\(answer.body.count)")
                let export = try #require(receiver.received.first)
                #expect(export.headers["x-api-key"] == "secret key", "OTEL_EXPORTER_OTLP_HEADERS, percent-decoded")
                #expect(export.headers["content-type"] == "application/json")

                // The same URL again, with no traceparent: a trace of its own, answered from
                // the result cache, with no fetch and no decode.
                let again = try await harness.get(path)
                #expect(again.status == 200)
                let hit = try await Self.spans(from: receiver) { spans in
                    spans.contains { $0.name == "request" && $0.traceID != callerTrace }
                }.filter { $0.traceID != callerTrace }
                let root = try #require(hit.first { $0.name == "request" })
                #expect(root.parentSpanID == nil, "a new trace's root has no parent")
                let read = try #require(hit.first { $0.name == "cache.read" })
                #expect(read.attributes["webimage.cache.outcome"] == "hit")
                #expect(read.parentSpanID == root.spanID)
                #expect(!hit.contains { ["fetch", "decode", "encode"].contains($0.name) })
            }
        } catch {
            await tracer.shutdown()
            await receiver.stop()
            throw error
        }
        await tracer.shutdown()
        #expect(tracer.droppedSpanCount == 0)
        #expect(tracer.failedExportCount == 0)
        await receiver.stop()
    }

    @Test func anUnsampledCallerIsFollowedAndNothingIsExported() async throws {
        let receiver = try await OTLPReceiver.start()
        let tracer = try Self.tracer(to: receiver)
        do {
            try await ImageServerHarness.run(tracer: tracer) { harness in
                harness.serve("/b.png", try ImageServerHarness.png())
                let answer = try await harness.get(
                    harness.path("resize=16", source: "/b.png"),
                    headers: [("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")])
                #expect(answer.status == 200)
            }
        } catch {
            await tracer.shutdown()
            await receiver.stop()
            throw error
        }
        // Shutting down sends whatever was queued: nothing, for a trace the caller did not sample.
        await tracer.shutdown()
        #expect(receiver.spans.isEmpty)
        #expect(tracer.exportedSpanCount == 0)
        await receiver.stop()
    }
}
