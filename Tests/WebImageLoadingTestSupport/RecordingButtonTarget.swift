import NIOConcurrencyHelpers
import WebImage
import WebImageTestSupport

/// A test button that keeps the image and background image shown for each state.
package final class RecordingButtonTarget: ButtonWebImageTarget {
    package let imageOperations = WebImageOperationStore()
    package let imageManager: ImageManager
    private let shown = NIOLockedValueBox<(images: [ButtonState: Image], backgrounds: [ButtonState: Image])>(([:], [:]))

    package init(manager: ImageManager) {
        imageManager = manager
    }

    package func image(for state: ButtonState) -> Image? {
        shown.withLockedValue { $0.images[state] }
    }

    package func backgroundImage(for state: ButtonState) -> Image? {
        shown.withLockedValue { $0.backgrounds[state] }
    }

    package func display(_ image: Image?, for state: ButtonState) {
        shown.withLockedValue { $0.images[state] = image }
    }

    package func displayBackground(_ image: Image?, for state: ButtonState) {
        shown.withLockedValue { $0.backgrounds[state] = image }
    }
}
