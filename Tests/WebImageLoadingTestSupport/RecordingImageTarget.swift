import WebImage
import WebImageTestSupport

/// A test target with a main and a highlighted image that records everything shown, in order.
package final class RecordingImageTarget: HighlightedWebImageTarget {
    package let imageOperations = WebImageOperationStore()
    package let imageManager: ImageManager
    package let imageIndicator: (any ImageIndicator)?
    private let shownMain = ArrivalLog<Image?>()
    private let shownHighlighted = ArrivalLog<Image?>()

    package init(manager: ImageManager, indicator: (any ImageIndicator)? = nil) {
        imageManager = manager
        imageIndicator = indicator
    }

    /// Every main image shown, `nil` for a clear.
    package var displayed: [Image?] { shownMain.elements }
    /// Every highlighted image shown.
    package var displayedHighlighted: [Image?] { shownHighlighted.elements }
    /// The main image on screen now.
    package var image: Image? { displayed.last ?? nil }

    package func display(_ image: Image?) {
        shownMain.append(image)
    }

    /// Returns once `count` main images have been shown.
    package func waitForDisplays(_ count: Int) async throws {
        try await shownMain.wait(for: count)
    }

    package func displayHighlighted(_ image: Image?) {
        shownHighlighted.append(image)
    }
}
