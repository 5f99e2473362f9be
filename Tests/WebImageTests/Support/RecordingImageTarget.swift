import NIOConcurrencyHelpers
@testable import WebImage

/// A test target with a main and a highlighted image that records everything shown, in order.
final class RecordingImageTarget: HighlightedWebImageTarget {
    let imageOperations = WebImageOperationStore()
    let imageManager: ImageManager
    let imageIndicator: (any ImageIndicator)?
    private let shown = NIOLockedValueBox<(main: [Image?], highlighted: [Image?])>(([], []))

    init(manager: ImageManager, indicator: (any ImageIndicator)? = nil) {
        imageManager = manager
        imageIndicator = indicator
    }

    /// Every main image shown, `nil` for a clear.
    var displayed: [Image?] { shown.withLockedValue { $0.main } }
    /// Every highlighted image shown.
    var displayedHighlighted: [Image?] { shown.withLockedValue { $0.highlighted } }
    /// The main image on screen now.
    var image: Image? { displayed.last ?? nil }

    func display(_ image: Image?) {
        shown.withLockedValue { $0.main.append(image) }
    }

    func displayHighlighted(_ image: Image?) {
        shown.withLockedValue { $0.highlighted.append(image) }
    }
}
