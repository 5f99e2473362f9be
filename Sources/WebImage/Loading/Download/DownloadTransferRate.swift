import Foundation

/// The slowest a transfer may receive its bytes once it has had time to start
/// (``ImageDownloaderConfiguration/minimumTransferRate``): a response that trickles a byte
/// now and then never stays silent for the idle timeout, yet holds its download slot for
/// as long as its deadline allows.
///
/// The rate is measured from the first response head: after ``gracePeriod`` seconds from
/// it (later redirects and retries count in it), the body bytes received in all over the
/// time taken must be at least ``bytesPerSecond``; a transfer below that fails with
/// `ImageError.Code.timedOut`. A transfer that ends within the grace period is never
/// measured; a slow first byte is left to the idle timeout and the deadline.
public struct DownloadTransferRate: Sendable, Hashable {
    /// The fewest bytes a second the transfer must average once measured.
    public var bytesPerSecond: Int
    /// Seconds from the first response head before the rate is measured: time for the
    /// body's first bytes and for TCP's window to open.
    public var gracePeriod: TimeInterval

    /// A minimum of `bytesPerSecond`, measured from `gracePeriod` seconds after the start.
    public init(bytesPerSecond: Int, gracePeriod: TimeInterval) {
        self.bytesPerSecond = bytesPerSecond
        self.gracePeriod = gracePeriod
    }
}
