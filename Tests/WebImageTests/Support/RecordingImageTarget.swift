import NIOConcurrencyHelpers
@testable import WebImage

/// A test target with a main and a highlighted image that records everything shown, in order.
final class RecordingImageTarget: HighlightedWebImageTarget {
    let imageOperations = WebImageOperationStore()
    let imageManager: ImageManager
    let imageIndicator: (any ImageIndicator)?
    private let shown = NIOLockedValueBox<(main: [Image?], highlighted: [Image?])>(([], []))
    private let waiters = NIOLockedValueBox<[(count: Int, continuation: CheckedContinuation<Void, Never>)]>([])

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
        let count = shown.withLockedValue { shown in
            shown.main.append(image)
            return shown.main.count
        }
        let ready = waiters.withLockedValue { waiters in
            defer { waiters.removeAll { $0.count <= count } }
            return waiters.filter { $0.count <= count }.map(\.continuation)
        }
        for continuation in ready {
            continuation.resume()
        }
    }

    /// Returns once `count` main images have been shown.
    func waitForDisplays(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = waiters.withLockedValue { waiters in
                if displayed.count >= count { return true }
                waiters.append((count, continuation))
                return false
            }
            if done {
                continuation.resume()
            }
        }
    }

    func displayHighlighted(_ image: Image?) {
        shown.withLockedValue { $0.highlighted.append(image) }
    }
}
