@testable import WebImage
@testable import WebImageTestSupport

/// A test target with a main and a highlighted image that records everything shown, in order.
final class RecordingImageTarget: HighlightedWebImageTarget {
    let imageOperations = WebImageOperationStore()
    let imageManager: ImageManager
    let imageIndicator: (any ImageIndicator)?
    private let shownMain = ArrivalLog<Image?>()
    private let shownHighlighted = ArrivalLog<Image?>()

    init(manager: ImageManager, indicator: (any ImageIndicator)? = nil) {
        imageManager = manager
        imageIndicator = indicator
    }

    /// Every main image shown, `nil` for a clear.
    var displayed: [Image?] { shownMain.elements }
    /// Every highlighted image shown.
    var displayedHighlighted: [Image?] { shownHighlighted.elements }
    /// The main image on screen now.
    var image: Image? { displayed.last ?? nil }

    func display(_ image: Image?) {
        shownMain.append(image)
    }

    /// Returns once `count` main images have been shown.
    func waitForDisplays(_ count: Int) async throws {
        try await shownMain.wait(for: count)
    }

    func displayHighlighted(_ image: Image?) {
        shownHighlighted.append(image)
    }
}
