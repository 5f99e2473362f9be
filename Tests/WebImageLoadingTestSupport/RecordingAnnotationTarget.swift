import NIOConcurrencyHelpers
@testable import WebImage
@testable import WebImageTestSupport

/// A test map marker that keeps its image and the offset it was drawn at.
final class RecordingAnnotationTarget: AnnotationWebImageTarget {
    let imageOperations = WebImageOperationStore()
    let imageManager: ImageManager
    private let shown = NIOLockedValueBox<(image: Image?, offset: (x: Double, y: Double))>((nil, (0, 0)))

    init(manager: ImageManager) {
        imageManager = manager
    }

    var image: Image? { shown.withLockedValue { $0.image } }
    var centerOffset: (x: Double, y: Double) { shown.withLockedValue { $0.offset } }

    func displayMarker(_ image: Image?, centerOffset: (x: Double, y: Double)) {
        shown.withLockedValue { $0 = (image, centerOffset) }
    }
}
