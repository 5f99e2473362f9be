import NIOConcurrencyHelpers
import WebImage
import WebImageTestSupport

/// A test map marker that keeps its image and the offset it was drawn at.
package final class RecordingAnnotationTarget: AnnotationWebImageTarget {
    package let imageOperations = WebImageOperationStore()
    package let imageManager: ImageManager
    private let shown = NIOLockedValueBox<(image: Image?, offset: (x: Double, y: Double))>((nil, (0, 0)))

    package init(manager: ImageManager) {
        imageManager = manager
    }

    package var image: Image? { shown.withLockedValue { $0.image } }
    package var centerOffset: (x: Double, y: Double) { shown.withLockedValue { $0.offset } }

    package func displayMarker(_ image: Image?, centerOffset: (x: Double, y: Double)) {
        shown.withLockedValue { $0 = (image, centerOffset) }
    }
}
