import NIOCore

/// Closes a connection at once when the server already holds as many as its
/// ``ConnectionLimit`` allows, so that slow or idle clients cannot pile up connections
/// without bound; the others carry on.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let limit: ConnectionLimit
    /// Whether this connection counts against the limit.
    private var holdsPlace = false
    /// Whether this connection was refused for the limit.
    private var isRefused = false

    /// A handler counting against `limit`.
    init(limit: ConnectionLimit) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive {
            admit(context: context)
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        leave()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        leave()
    }

    private func admit(context: ChannelHandlerContext) {
        guard !holdsPlace, !isRefused else { return }
        if limit.acquire() {
            holdsPlace = true
        } else {
            isRefused = true
            context.close(promise: nil)
        }
    }

    private func leave() {
        guard holdsPlace else { return }
        holdsPlace = false
        limit.release()
    }
}
