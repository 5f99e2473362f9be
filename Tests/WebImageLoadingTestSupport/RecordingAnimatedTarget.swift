@testable import WebImage
@testable import WebImageTestSupport

/// A test target that plays animations on a manual clock and records every image shown.
final class RecordingAnimatedTarget: AnimatedImageTarget {
    let imageOperations = WebImageOperationStore()
    let imageManager: ImageManager
    let animationPlayback: AnimationPlayback
    private let shown = ArrivalLog<Image?>()

    init(manager: ImageManager, clock: ManualAnimationClock) {
        imageManager = manager
        animationPlayback = AnimationPlayback(clock: clock)
    }

    /// Every image shown, `nil` for a clear.
    var displayed: [Image?] { shown.elements }

    func display(_ image: Image?) {
        shown.append(image)
    }
}
