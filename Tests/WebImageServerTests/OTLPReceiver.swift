import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import WebImage

/// A real OTLP/HTTP receiver on a loopback port: a Hummingbird listener that keeps every
/// JSON body POSTed to `/v1/traces`, with the headers it came with.
final class OTLPReceiver: Sendable {
    /// One POST: its headers and its decoded JSON body.
    struct Export: @unchecked Sendable {
        let headers: [String: String]
        let body: [String: Any]
    }

    let port: Int
    private let exports: NIOLockedValueBox<[Export]>
    private let running: Task<Void, any Error>

    private init(port: Int, exports: NIOLockedValueBox<[Export]>, running: Task<Void, any Error>) {
        self.port = port
        self.exports = exports
        self.running = running
    }

    /// Starts a receiver on 127.0.0.1 at a free port.
    static func start() async throws -> OTLPReceiver {
        let exports = NIOLockedValueBox<[Export]>([])
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 16 << 20)
            let body = try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any] ?? [:]
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            exports.withLockedValue { $0.append(Export(headers: headers, body: body)) }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
        }
        let port = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.continuation.yield(channel.localAddress?.port ?? 0) })
        let running = Task {
            defer { port.continuation.finish() }
            try await application.runService()
        }
        var iterator = port.stream.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            running.cancel()
            throw ImageError(.cannotConnect, "the OTLP receiver did not start")
        }
        return OTLPReceiver(port: bound, exports: exports, running: running)
    }

    /// Every POST received so far.
    var received: [Export] { exports.withLockedValue { $0 } }

    /// Every span received so far, each with its resource's attributes.
    var spans: [ReceivedSpan] {
        received.flatMap { export -> [ReceivedSpan] in
            let resources = export.body["resourceSpans"] as? [[String: Any]] ?? []
            return resources.flatMap { resource -> [ReceivedSpan] in
                let resourceAttributes = ReceivedSpan.attributes((resource["resource"] as? [String: Any])?["attributes"])
                let scopes = resource["scopeSpans"] as? [[String: Any]] ?? []
                return scopes.flatMap { scope in
                    (scope["spans"] as? [[String: Any]] ?? []).map { ReceivedSpan($0, resource: resourceAttributes) }
                }
            }
        }
    }

    /// Stops the listener.
    func stop() async {
        running.cancel()
        _ = try? await running.value
    }
}
