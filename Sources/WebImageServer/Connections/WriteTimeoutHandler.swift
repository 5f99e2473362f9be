import NIOCore

/// Closes a connection whose client stops reading: once the answer's bytes back up (the
/// channel turns unwritable) and stay backed up for the write time-out, the connection is
/// closed, so that a client cannot hold a connection, and the answer's memory, by never
/// reading it.
final class WriteTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny

    private let timeout: TimeAmount
    private var closing: Scheduled<Void>?

    /// A handler closing connections that stay unwritable for `timeout`.
    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            closing?.cancel()
            closing = nil
        } else if closing == nil {
            let channel = context.channel
            closing = context.eventLoop.scheduleTask(in: timeout) {
                channel.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing?.cancel()
        closing = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        closing?.cancel()
        closing = nil
    }
}
