import NIOCore
import NIOHTTP1

/// Turns each request on a connection into a call of its route, and tells the server
/// when the client goes away mid-response.
final class LoopbackChannelHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: LoopbackHTTPServer
    private let connection = LoopbackConnectionState()
    private var head: HTTPRequestHead?

    init(server: LoopbackHTTPServer) {
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            connection.markRequestStarted()
            let request = LoopbackRequest(head: head)
            let writer = LoopbackResponseWriter(channel: context.channel, connection: connection)
            server.handle(request, writer: writer)
        }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        server.connectionOpened(context.channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        server.connectionClosed(context.channel)
        if connection.wasAbortedByClient {
            server.recordConnectionAbortedByClient()
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
