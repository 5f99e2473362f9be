import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Writes one response, piece by piece, so a route can delay, stall, stream or drop it.
///
/// Writes after the client has gone away are dropped silently: a route never has to
/// handle a closed connection.
public final class LoopbackResponseWriter: Sendable {
    private let channel: any Channel
    private let connection: LoopbackConnectionState

    init(channel: any Channel, connection: LoopbackConnectionState) {
        self.channel = channel
        self.connection = connection
    }

    /// Sends the status line and headers. Without a `Content-Length` header the body is
    /// sent chunked.
    public func writeHead(status: Int, headers: [(String, String)] = []) async {
        let head = HTTPResponseHead(
            version: .http1_1,
            status: HTTPResponseStatus(statusCode: status),
            headers: HTTPHeaders(headers)
        )
        await send(.head(head))
    }

    /// Sends some body bytes.
    public func writeBody(_ bytes: some Sequence<UInt8>) async {
        await send(.body(.byteBuffer(ByteBuffer(bytes: bytes))))
    }

    /// Ends the response.
    public func end() async {
        connection.markResponseEnded()
        await send(.end(nil))
    }

    /// Sends a whole response with a `Content-Length` header.
    public func respond(status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = []) async {
        await writeHead(status: status, headers: headers + [("Content-Length", String(body.count))])
        if !body.isEmpty {
            await writeBody(body)
        }
        await end()
    }

    /// Closes the connection at once, wherever the response is (to simulate a lost connection).
    public func dropConnection() async {
        connection.markClosedByServer()
        try? await channel.close()
    }

    private func send(_ part: HTTPServerResponsePart) async {
        try? await channel.writeAndFlush(part).get()
    }
}
