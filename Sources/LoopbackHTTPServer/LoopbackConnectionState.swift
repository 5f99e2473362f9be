import NIOConcurrencyHelpers

/// What the server knows about one connection: whether a response is under way and who closed it.
final class LoopbackConnectionState: Sendable {
    private struct Flags {
        var requestInFlight = false
        var closedByServer = false
    }

    private let flags = NIOLockedValueBox(Flags())

    func markRequestStarted() {
        flags.withLockedValue { $0.requestInFlight = true }
    }

    func markResponseEnded() {
        flags.withLockedValue { $0.requestInFlight = false }
    }

    func markClosedByServer() {
        flags.withLockedValue { $0.closedByServer = true }
    }

    /// Whether the client closed the connection while a response was still under way.
    var wasAbortedByClient: Bool {
        flags.withLockedValue { $0.requestInFlight && !$0.closedByServer }
    }
}
