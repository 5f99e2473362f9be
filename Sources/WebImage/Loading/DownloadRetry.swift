import Foundation

/// A download about to be tried again, as ``DownloadEvent/retrying(_:_:)`` reports it.
public struct DownloadRetry: Sendable {
    /// The number of the attempt about to start: 2 for the first retry.
    public var attempt: Int
    /// How long the downloader waits before it, in seconds.
    public var delay: TimeInterval
    /// Why the attempt before failed.
    public var error: ImageError

    /// Creates a retry report.
    public init(attempt: Int, delay: TimeInterval, error: ImageError) {
        self.attempt = attempt
        self.delay = delay
        self.error = error
    }
}
