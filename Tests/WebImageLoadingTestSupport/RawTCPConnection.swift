import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import WebImageTestSupport

/// A plain TCP connection to a loopback port, for tests that speak bytes rather than
/// HTTP: it sends what it is given, keeps what arrives, and notes when the peer closes.
package final class RawTCPConnection: Sendable {
    /// Keeps the bytes received and completes `closed` when the channel goes inactive.
    private final class Recorder: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer

        let received = NIOLockedValueBox<[UInt8]>([])
        let closed: EventLoopPromise<Void>

        init(closed: EventLoopPromise<Void>) {
            self.closed = closed
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = Self.unwrapInboundIn(data)
            received.withLockedValue { $0 += buffer.readableBytesView }
        }

        func channelInactive(context: ChannelHandlerContext) {
            closed.succeed()
            context.fireChannelInactive()
        }
    }

    private let channel: any Channel
    private let recorder: Recorder

    /// Connects to 127.0.0.1:`port`; a connection that does not `read` never reads what
    /// arrives, and keeps a receive buffer of 4 KiB, so that the peer's writes back up.
    package init(port: Int, reads: Bool = true) async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let recorder = Recorder(closed: group.next().makePromise())
        self.recorder = recorder
        var bootstrap = ClientBootstrap(group: group)
        if !reads {
            bootstrap = bootstrap.channelOption(.autoRead, value: false).channelOption(.socketOption(.so_rcvbuf), value: 4096)
        }
        channel =
            try await bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(recorder) }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
    }

    /// Sends `text`.
    package func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    /// What arrived so far, as text.
    package var received: String {
        String(decoding: recorder.received.withLockedValue { $0 }, as: UTF8.self)
    }

    /// Whether the peer has closed the connection (or it was closed here).
    package var isClosed: Bool {
        !channel.isActive
    }

    /// Waits for the connection to close, at most `seconds`; `true` when it did.
    package func waitForClose(within seconds: Int64) async -> Bool {
        let timeout = channel.eventLoop.scheduleTask(in: .seconds(seconds)) {}
        let closed = recorder.closed.futureResult.map { true }
        let timedOut = timeout.futureResult.map { false }
        let first = channel.eventLoop.makePromise(of: Bool.self)
        // Whichever comes first answers: NIO leaves a completed promise as it is when the
        // other completes it later.
        closed.cascade(to: first)
        timedOut.whenSuccess { first.succeed($0) }
        let result = (try? await first.futureResult.get()) ?? false
        timeout.cancel()
        return result
    }

    /// Closes the connection from this side.
    package func close() async {
        try? await channel.close()
    }
}
