/// Something a target shows while its image loads: a spinner, a progress bar — SDWebImage's
/// `SDWebImageIndicator`.
///
/// A target starts its indicator when a load begins, feeds it the download's progress and
/// stops it when the load ends, whatever the outcome. Calls arrive on the thread that
/// started the load and on the load's callback queue.
public protocol ImageIndicator: AnyObject, Sendable {
    /// Whether the indicator is showing.
    var isAnimating: Bool { get }
    /// Shows the indicator; the load has begun.
    func startAnimating()
    /// Hides the indicator; the load has ended.
    func stopAnimating()
    /// The fraction of the image received so far, from 0 to 1.
    func updateProgress(_ fraction: Double)
}
