import NIOConcurrencyHelpers
@testable import WebImage
@testable import WebImageTestSupport

/// A test button that keeps the image and background image shown for each state.
final class RecordingButtonTarget: ButtonWebImageTarget {
    let imageOperations = WebImageOperationStore()
    let imageManager: ImageManager
    private let shown = NIOLockedValueBox<(images: [ButtonState: Image], backgrounds: [ButtonState: Image])>(([:], [:]))

    init(manager: ImageManager) {
        imageManager = manager
    }

    func image(for state: ButtonState) -> Image? {
        shown.withLockedValue { $0.images[state] }
    }

    func backgroundImage(for state: ButtonState) -> Image? {
        shown.withLockedValue { $0.backgrounds[state] }
    }

    func display(_ image: Image?, for state: ButtonState) {
        shown.withLockedValue { $0.images[state] = image }
    }

    func displayBackground(_ image: Image?, for state: ButtonState) {
        shown.withLockedValue { $0.backgrounds[state] = image }
    }
}
