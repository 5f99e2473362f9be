/// Where a download waits in the queue: high before normal before low.
public enum DownloadPriority: Int, Sendable, Hashable, Comparable {
    /// Queued behind every other download.
    case low
    /// The default.
    case normal
    /// Starts ahead of normal and low downloads.
    case high

    /// Whether `lhs` starts after `rhs`.
    public static func < (lhs: DownloadPriority, rhs: DownloadPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
