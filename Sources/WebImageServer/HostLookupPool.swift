import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Runs blocking host-name lookups (`getaddrinfo`) on a few threads of their own, each
/// with a deadline, so that a slow or silent DNS server holds neither the blocking-I/O
/// threads the server's disk work runs on nor the request that asked.
///
/// A lookup past its deadline answers no addresses (the source "does not resolve") while
/// its thread finishes in the background; so do lookups asked for while
/// ``maximumPending`` are already queued or running, so that the queue cannot grow
/// without bound while the threads are stuck.
final class HostLookupPool: Sendable {
    /// The pool the system resolver uses: 4 threads, 5 s per lookup, 64 pending at most.
    static let shared = HostLookupPool(threads: 4, timeout: .seconds(5), maximumPending: 64)

    private let pool: NIOThreadPool
    /// How long a caller waits for one lookup.
    let timeout: TimeAmount
    /// The most lookups queued or running at once.
    let maximumPending: Int
    private let pending = NIOLockedValueBox(0)

    /// A started pool of `threads` threads (never shut down: it lives as long as the process).
    init(threads: Int, timeout: TimeAmount, maximumPending: Int) {
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
        self.timeout = timeout
        self.maximumPending = max(1, maximumPending)
    }

    /// Stops the threads once their lookups end (for pools other than ``shared``).
    func shutdown() async throws {
        try await pool.shutdownGracefully()
    }

    /// The lookups queued or running now.
    var pendingCount: Int { pending.withLockedValue { $0 } }

    /// `lookup(host)` run on one of the pool's threads; `[]` when it does not finish
    /// within ``timeout`` or the pool is full.
    func run(_ host: String, _ lookup: @escaping @Sendable (String) -> [String]) async -> [String] {
        let admitted = pending.withLockedValue { count in
            guard count < maximumPending else { return false }
            count += 1
            return true
        }
        guard admitted else { return [] }
        let answer = NIOLockedValueBox<CheckedContinuation<[String], Never>?>(nil)
        let timer = NIOLockedValueBox<Scheduled<Void>?>(nil)
        /// Hands `addresses` to the caller unless it was answered already.
        @Sendable func finish(_ addresses: [String]) {
            let continuation = answer.withLockedValue { continuation in
                defer { continuation = nil }
                return continuation
            }
            continuation?.resume(returning: addresses)
            timer.withLockedValue { $0?.cancel() }
        }
        return await withCheckedContinuation { continuation in
            answer.withLockedValue { $0 = continuation }
            let scheduled = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: timeout) { finish([]) }
            timer.withLockedValue { $0 = scheduled }
            pool.submit { [pending] state in
                let addresses = state == .active ? lookup(host) : []
                pending.withLockedValue { $0 -= 1 }
                finish(addresses)
            }
        }
    }
}
