/// Which of the queued downloads of one priority starts next.
public enum DownloadExecutionOrder: Sendable, Hashable {
    /// The oldest first (the default).
    case fifo
    /// The newest first: what was asked for last is probably what is on screen now.
    case lifo
}
