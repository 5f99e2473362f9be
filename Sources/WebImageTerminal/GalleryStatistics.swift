import WebImage
/// What a gallery's loads have done so far, for its status line and for tests.
public struct GalleryStatistics: Sendable, Hashable {
    /// Items with a load running now (a cell's, a prefetch's, or both sharing one download).
    public var inFlight = 0
    /// The most items that were loading at once.
    public var peakInFlight = 0
    /// Loads started by cells.
    public var cellLoadsStarted = 0
    /// Cell loads cancelled because their cell scrolled away and was reused.
    public var cellLoadsCancelled = 0
    /// Prefetch loads started.
    public var prefetchesStarted = 0
    /// Prefetch loads cancelled because their item left the prefetch window.
    public var prefetchesCancelled = 0
    /// Cell loads answered from memory.
    public var memoryHits = 0
    /// Cell loads answered from disk.
    public var diskHits = 0
    /// Cell loads answered by a download.
    public var downloads = 0
    /// Cell loads that failed.
    public var errors = 0

    /// Creates empty statistics.
    public init() {}

    /// Cell loads that ended with an answer.
    public var cellLoadsFinished: Int { memoryHits + diskHits + downloads + errors }

    /// One line for a status bar.
    public var summary: String {
        "in flight \(inFlight) · cancelled \(cellLoadsCancelled + prefetchesCancelled) · memory \(memoryHits)"
            + " · disk \(diskHits) · network \(downloads) · errors \(errors)"
    }
}
