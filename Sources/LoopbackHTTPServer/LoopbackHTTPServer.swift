import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A real HTTP/1.1 (or HTTPS) server on 127.0.0.1 for tests and demos.
///
/// It starts in milliseconds on a free port, calls the route registered for each request
/// path (404 for others), counts requests per path and notices when a client closes a
/// connection in the middle of a response.
///
/// ```swift
/// let server = try await LoopbackHTTPServer.start()
/// server.route("/hello") { _, response in
///     await response.respond(body: Array("hi".utf8))
/// }
/// // … GET server.url(for: "/hello") …
/// try await server.stop()
/// ```
public final class LoopbackHTTPServer: Sendable {
    /// Handles one request by writing its response.
    public typealias Route = @Sendable (LoopbackRequest, LoopbackResponseWriter) async -> Void

    private struct State {
        var routes: [String: Route] = [:]
        var requests: [LoopbackRequest] = []
        var abortedConnections = 0
        var connections: [ObjectIdentifier: any Channel] = [:]
    }

    /// The port the server listens on.
    public let port: Int
    /// `http` or `https`.
    public let scheme: String
    /// The loopback address the server listens on.
    public let host: String
    private let channel: any Channel
    private let state = LoopbackWatchedValue(State())

    private init(channel: any Channel, scheme: String, host: String) {
        self.channel = channel
        self.scheme = scheme
        self.host = host
        port = channel.localAddress?.port ?? 0
    }

    /// Starts a server on `host` (127.0.0.1 unless another loopback address is named) on
    /// `port` (0: a free one); HTTPS when `tls` is given.
    public static func start(tls: LoopbackTLSIdentity? = nil, host: String = "127.0.0.1", port: Int = 0) async throws -> LoopbackHTTPServer {
        let sslContext = try tls.map { try NIOSSLContext(configuration: $0.configuration) }
        let box = NIOLockedValueBox<LoopbackHTTPServer?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture(withResultOf: {
                    guard let server = box.withLockedValue({ $0 }) else {
                        throw ChannelError.ioOnClosedChannel
                    }
                    let pipeline = channel.pipeline.syncOperations
                    if let sslContext {
                        try pipeline.addHandler(NIOSSLServerHandler(context: sslContext))
                    }
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(LoopbackChannelHandler(server: server))
                })
            }
            .bind(host: host, port: port)
            .get()
        let server = LoopbackHTTPServer(channel: channel, scheme: tls == nil ? "http" : "https", host: host)
        box.withLockedValue { $0 = server }
        return server
    }

    /// `http://<host>:<port>` (or `https://…`).
    public var baseURL: URL {
        URL(string: "\(scheme)://\(host):\(port)")!
    }

    /// The full URL of `path` (which starts with `/` and may carry a query).
    public func url(for path: String) -> URL {
        URL(string: "\(scheme)://\(host):\(port)\(path)")!
    }

    /// Registers `route` for requests whose path (without query) is `path`, replacing any earlier one.
    public func route(_ path: String, _ route: @escaping Route) {
        state.update { $0.routes[path] = route }
    }

    /// Every request received so far, in arrival order.
    public var requests: [LoopbackRequest] {
        state.read { $0.requests }
    }

    /// How many requests for `path` arrived so far.
    public func requestCount(for path: String) -> Int {
        state.read { state in state.requests.count { $0.path == path } }
    }

    /// How many connections the client closed while their response was still under way.
    public var connectionsAbortedByClient: Int {
        state.read { $0.abortedConnections }
    }

    /// Returns once at least `count` requests for `path` have arrived. So that a test that
    /// went wrong fails instead of hanging, throws ``LoopbackWaitTimedOut`` once `timeout`
    /// has passed, and `CancellationError` when the task is cancelled.
    public func waitForRequests(to path: String, count: Int = 1, timeout: Duration = .seconds(900)) async throws {
        try await state.wait(timeout: timeout) { state in state.requests.count { $0.path == path } >= count }
    }

    /// Returns once the client has closed at least `count` connections mid-response; throws
    /// as ``waitForRequests(to:count:timeout:)`` does.
    public func waitForConnectionsAbortedByClient(count: Int = 1, timeout: Duration = .seconds(900)) async throws {
        try await state.wait(timeout: timeout) { $0.abortedConnections >= count }
    }

    /// Stops listening and closes every open connection.
    public func stop() async throws {
        try await channel.close()
        let connections = state.read { Array($0.connections.values) }
        for connection in connections {
            try? await connection.close()
        }
    }

    func connectionOpened(_ connection: any Channel) {
        state.update { $0.connections[ObjectIdentifier(connection)] = connection }
    }

    func connectionClosed(_ connection: any Channel) {
        state.update { _ = $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    func handle(_ request: LoopbackRequest, writer: LoopbackResponseWriter) {
        let route = state.update { state in
            state.requests.append(request)
            return state.routes[request.path]
        }
        Task(executorPreference: LoopbackTaskExecutor.shared) {
            if let route {
                await route(request, writer)
            } else {
                await writer.respond(status: 404)
            }
        }
    }

    func recordConnectionAbortedByClient() {
        state.update { $0.abortedConnections += 1 }
    }
}
