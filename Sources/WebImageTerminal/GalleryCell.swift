import WebImage
import Foundation
import NIOConcurrencyHelpers

/// One reusable cell of a ``GalleryModel``: a `WebImageTarget` that shows the image of
/// whichever item it is given, a placeholder until that image arrives, and an indicator
/// while it loads.
public final class GalleryCell: WebImageTarget {
    private struct State {
        var item: Int?
        var image: Image?
        var response: ImageResponse?
    }

    /// The cell's loads.
    public let imageOperations = WebImageOperationStore()
    /// The manager the cell loads through.
    public let imageManager: ImageManager
    /// The spinner shown while the cell loads.
    public let activityIndicator: ActivityImageIndicator
    /// The image shown while the real one loads.
    public let placeholder: Image
    private let state = NIOLockedValueBox(State())

    /// Creates an empty cell.
    public init(manager: ImageManager, placeholder: Image, onChange: (@Sendable () -> Void)? = nil) {
        imageManager = manager
        self.placeholder = placeholder
        activityIndicator = ActivityImageIndicator(onChange: onChange)
    }

    /// The spinner.
    public var imageIndicator: (any ImageIndicator)? { activityIndicator }

    /// The item the cell shows, if any.
    public var item: Int? { state.withLockedValue { $0.item } }

    /// The image on screen: the placeholder, the loaded image, or nothing.
    public var image: Image? { state.withLockedValue { $0.image } }

    /// Whether the cell shows its placeholder.
    public var isShowingPlaceholder: Bool { state.withLockedValue { $0.image === placeholder } }

    /// The answer of the cell's last finished load (`nil` while loading).
    public var response: ImageResponse? { state.withLockedValue { $0.response } }

    /// Shows `image`.
    public func display(_ image: Image?) {
        state.withLockedValue { $0.image = image }
    }

    /// Makes the cell show `item` (nothing when `nil`), forgetting the previous answer.
    func prepare(forItem item: Int?) {
        state.withLockedValue { $0 = State(item: item, image: $0.image, response: nil) }
    }

    /// Records the answer of the cell's load.
    func record(_ response: ImageResponse) {
        state.withLockedValue { $0.response = response }
    }
}
