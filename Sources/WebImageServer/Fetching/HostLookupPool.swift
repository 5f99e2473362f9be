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
/// without bound while the threads are stuck, and lookups of a name whose zone (its
/// ``RegistrableDomain``) already has ``maximumPerZone`` queued or running, so that one
/// domain whose name servers never answer holds at most that many threads, whatever
/// names under it the requests make up. (glibc's `getaddrinfo` cannot be cancelled: a
/// thread stays in it for the resolver's own timeout after its caller gave up.)
final class HostLookupPool: Sendable {
    /// The pool the system resolver uses: 8 threads, 5 s per lookup, 64 pending at most, 2
    /// at once for one zone — so a silent zone holds a quarter of the threads.
    static let shared = HostLookupPool(threads: 8, timeout: .seconds(5), maximumPending: 64, maximumPerZone: 2)

    private let pool: NIOThreadPool
    /// How long a caller waits for one lookup.
    let timeout: TimeAmount
    /// The most lookups queued or running at once.
    let maximumPending: Int
    /// The most lookups queued or running at once for names of one zone.
    let maximumPerZone: Int
    private let pending = NIOLockedValueBox(Pending())

    /// The lookups queued or running, in all and by zone.
    private struct Pending {
        var count = 0
        var byZone: [String: Int] = [:]
    }

    /// A started pool of `threads` threads (never shut down: it lives as long as the
    /// process), at most `maximumPending` lookups queued or running, `maximumPerZone` of
    /// them for one zone (all of them when `nil`).
    init(threads: Int, timeout: TimeAmount, maximumPending: Int, maximumPerZone: Int? = nil) {
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
        self.timeout = timeout
        self.maximumPending = max(1, maximumPending)
        self.maximumPerZone = max(1, maximumPerZone ?? maximumPending)
    }

    /// Stops the threads once their lookups end (for pools other than ``shared``).
    func shutdown() async throws {
        try await pool.shutdownGracefully()
    }

    /// The lookups queued or running now.
    var pendingCount: Int { pending.withLockedValue { $0.count } }

    /// `lookup(host)` run on one of the pool's threads; `[]` when it does not finish
    /// within ``timeout``, or at once when the pool or `host`'s zone is full.
    func run(_ host: String, _ lookup: @escaping @Sendable (String) -> [String]) async -> [String] {
        let zone = RegistrableDomain(of: host).description
        let (maximumPending, maximumPerZone) = (self.maximumPending, self.maximumPerZone)
        let admitted = pending.withLockedValue { pending in
            guard pending.count < maximumPending, pending.byZone[zone, default: 0] < maximumPerZone else { return false }
            pending.count += 1
            pending.byZone[zone, default: 0] += 1
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
                pending.withLockedValue { pending in
                    pending.count -= 1
                    pending.byZone[zone, default: 1] -= 1
                    if pending.byZone[zone] == 0 { pending.byZone[zone] = nil }
                }
                finish(addresses)
            }
        }
    }
}
