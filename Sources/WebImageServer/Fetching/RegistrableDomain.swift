import Foundation

/// The part of a host name that one owner registers, approximated without a public-suffix
/// list: the last two labels (`cdn.example.com` → `example.com`), or the last three when
/// the name ends in a two-letter country code under a short second level (`a.b.example.co.uk`
/// → `example.co.uk`, `x.example.com.au` → `example.com.au`). An IP address is its own
/// domain.
///
/// The server keys what one origin may hold by it (fetches at once, lookups at once), so
/// that wildcard subdomains of one domain count as one origin. The approximation errs
/// towards grouping: two owners under an unlisted shared suffix share a limit, which slows
/// them, never opens a limit.
struct RegistrableDomain: Hashable, Sendable, CustomStringConvertible {
    /// The domain, lowercased, without a trailing dot.
    let description: String

    /// The registrable domain of `host` (a host name or an address, as in a URL).
    init(of host: String) {
        let name = host.lowercased().trimmingCharacters(in: ["[", "]", "."])
        if IPAddress(name) != nil {
            description = name
            return
        }
        let labels = name.split(separator: ".", omittingEmptySubsequences: true)
        let count: Int
        if labels.count >= 3, labels[labels.count - 1].count == 2, labels[labels.count - 2].count <= 3 {
            count = 3
        } else {
            count = 2
        }
        description = labels.suffix(count).joined(separator: ".")
    }
}
