import Foundation

/// A download about to be tried again, as ``DownloadEvent/retrying(_:_:)`` reports it.
public struct DownloadRetry: Sendable {
    /// The number of the attempt about to start: 2 for the first retry.
    public var attempt: Int
    /// How long the downloader waits before it, in seconds.
    public var delay: TimeInterval
    /// Why the attempt before failed.
    public var error: ImageError
    /// How many bytes of the body the attempt keeps and asks the rest of with `Range` and
    /// `If-Range`; 0 when it downloads the whole body again.
    public var resumeOffset: Int

    /// Creates a retry report.
    public init(attempt: Int, delay: TimeInterval, error: ImageError, resumeOffset: Int = 0) {
        self.attempt = attempt
        self.delay = delay
        self.error = error
        self.resumeOffset = resumeOffset
    }
}
