import NIOConcurrencyHelpers
import NIOCore

/// The addresses host names resolved to, kept for a short while, so that the lookup made
/// before a fetch takes its slot (to learn which origin it counts against) and the one the
/// downloader makes where it connects are one lookup, and answer the same addresses.
///
/// Only answers with addresses are kept (a name that did not resolve is asked again), for
/// ``lifetime``, and at most ``capacity`` names: a full table first drops what has expired,
/// then the names kept longest.
final class ResolvedHosts: Sendable {
    /// How long an answer is kept.
    let lifetime: TimeAmount
    /// The most names kept.
    let capacity: Int
    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    private struct Entry {
        let addresses: [IPAddress]
        let expiry: NIODeadline
    }

    /// A table keeping each answer for `lifetime`, `capacity` names at most.
    init(lifetime: TimeAmount = .seconds(30), capacity: Int = 4096) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
    }

    /// The addresses of `host`: those kept, while fresh, else `resolve`'s answer (kept when
    /// it has any).
    func addresses(of host: String, resolve: (String) async -> [IPAddress]) async -> [IPAddress] {
        let now = NIODeadline.now()
        if let kept = entries.withLockedValue({ $0[host] }), kept.expiry > now {
            return kept.addresses
        }
        let addresses = await resolve(host)
        guard !addresses.isEmpty else { return addresses }
        let entry = Entry(addresses: addresses, expiry: NIODeadline.now() + lifetime)
        let capacity = self.capacity
        entries.withLockedValue { entries in
            if entries[host] == nil, entries.count >= capacity {
                let now = NIODeadline.now()
                entries = entries.filter { $0.value.expiry > now }
                while entries.count >= capacity, let oldest = entries.min(by: { $0.value.expiry < $1.value.expiry }) {
                    entries[oldest.key] = nil
                }
            }
            entries[host] = entry
        }
        return addresses
    }
}
