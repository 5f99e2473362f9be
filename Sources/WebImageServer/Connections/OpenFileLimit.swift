#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's limit on open files, which every connection, fetch and cache file counts
/// against: raised at start as far as the system lets it, and the connection cap kept
/// below it, so that accepting connections can never leave the server unable to open a
/// cache file or a source connection.
struct OpenFileLimit: Equatable, Sendable {
    /// The soft limit in force.
    var current: Int
    /// The hard limit, the most the soft one may be raised to without privileges.
    var maximum: Int

    /// The limit in force now.
    static func now() -> OpenFileLimit {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return OpenFileLimit(current: 1024, maximum: 1024) }
        return OpenFileLimit(current: Self.count(limit.rlim_cur), maximum: Self.count(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one (or `1 << 20`, when the hard one is
    /// unlimited), where the system allows it.
    ///
    /// - Returns: The limit in force afterwards.
    static func raised() -> OpenFileLimit {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return now() }
        let target = limit.rlim_max == rlim_t.max ? rlim_t(1 << 20) : limit.rlim_max
        if limit.rlim_cur < target {
            limit.rlim_cur = target
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return now()
    }

    /// The connections that may be held at once: `requested`, or fewer so that `reserve`
    /// files stay free for everything else (at least 1).
    func connectionCap(requested: Int, reserve: Int) -> Int {
        max(1, min(requested, current - reserve))
    }

    private static func count(_ value: rlim_t) -> Int {
        value == rlim_t.max || value > rlim_t(Int.max) ? Int.max : Int(value)
    }
}
