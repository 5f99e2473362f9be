import WebImage
import Foundation
import NIOConcurrencyHelpers

/// One reusable cell of a ``GalleryModel``: a `WebImageTarget` that shows the image of
/// whichever item it is given, a placeholder until that image arrives, and an indicator
/// while it loads.
///
/// The cell is an `AnimatedImageTarget`: loaded with `setAnimatedImage`, an animation plays
/// in it frame by frame, and giving it anything else stops that animation and frees its
/// buffer.
public final class GalleryCell: AnimatedImageTarget {
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
    /// The animation the cell plays, if any, and the clock it plays by.
    public let animationPlayback: AnimationPlayback
    private let state = NIOLockedValueBox(State())
    private let onChange: (@Sendable () -> Void)?

    /// Creates an empty cell whose animations play by `animationClock`, their decoded frames
    /// counted in `frameBudget`; `onChange` runs whenever its spinner moves or an animation
    /// shows a new frame.
    public init(
        manager: ImageManager,
        placeholder: Image,
        animationClock: any AnimationClock = SystemAnimationClock(),
        frameBudget: AnimationFrameBudget = .shared,
        onChange: (@Sendable () -> Void)? = nil
    ) {
        imageManager = manager
        self.placeholder = placeholder
        self.onChange = onChange
        animationPlayback = AnimationPlayback(
            clock: animationClock, maxBufferedFrames: Self.bufferedFrames, frameBudget: frameBudget)
        activityIndicator = ActivityImageIndicator(onChange: onChange)
    }

    /// How many decoded frames a cell's animation keeps ahead: a screenful of cells plays at
    /// once, so each keeps just enough to cover one frame's decode.
    public static let bufferedFrames = 2

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

    /// Shows `image`: a still image, a poster, or the next frame of the animation playing
    /// (called then from the animation clock's thread, under the playback's lock).
    public func display(_ image: Image?) {
        state.withLockedValue { $0.image = image }
        onChange?()
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
