import WebImage
import WebImageTestSupport

/// A test target that plays animations on a manual clock and records every image shown.
package final class RecordingAnimatedTarget: AnimatedImageTarget {
    package let imageOperations = WebImageOperationStore()
    package let imageManager: ImageManager
    package let animationPlayback: AnimationPlayback
    private let shown = ArrivalLog<Image?>()

    package init(manager: ImageManager, clock: ManualAnimationClock) {
        imageManager = manager
        animationPlayback = AnimationPlayback(clock: clock)
    }

    /// Every image shown, `nil` for a clear.
    package var displayed: [Image?] { shown.elements }

    package func display(_ image: Image?) {
        shown.append(image)
    }
}
