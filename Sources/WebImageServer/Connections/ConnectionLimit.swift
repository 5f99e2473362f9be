import NIOConcurrencyHelpers

/// How many connections the image server holds, against its cap
/// (``ImageServerConfiguration/maxConnections``).
///
/// Room Connections/: what happens on a connection before and after a route — the connection and open-file caps, refused bodies and methods, write timeouts, the access log.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
final class ConnectionLimit: Sendable {
    private let open = NIOLockedValueBox(0)
    /// The most connections held at once.
    let maximum: Int

    /// A limit of `maximum` connections.
    init(maximum: Int) {
        self.maximum = maximum
    }

    /// Takes a place for a new connection; `false` when all are taken.
    func acquire() -> Bool {
        open.withLockedValue { open in
            guard open < maximum else { return false }
            open += 1
            return true
        }
    }

    /// Gives back a connection's place.
    func release() {
        open.withLockedValue { $0 -= 1 }
    }
}
