import WebImage
import Foundation
import NIOConcurrencyHelpers

/// A scrolling grid of images with SDWebImage's table-view behaviour, independent of any
/// screen: a fixed set of reusable ``GalleryCell``s, the loads of cells that scroll away
/// cancelled, the next screen prefetched at low priority, and counters of what happened.
///
/// All changes, and every load's callbacks, run on the model's serial ``queue``. Call the
/// model's methods from any other thread (never from ``queue`` itself); read its cells and
/// statistics from anywhere.
public final class GalleryModel: Sendable {
    private struct State {
        var topRow = 0
        var scrollsForward = true
        var hasStarted = false
        var cellLoads: [Int: Int] = [:]
        var prefetches: [Int: ImageLoadOperation] = [:]
        var statistics = GalleryStatistics()
        var settledWaiters: [@Sendable () -> Void] = []
    }

    /// The images' URLs, one per item.
    public let urls: [URL]
    /// The grid's geometry.
    public let layout: GalleryLayout
    /// The reusable cells, `layout.cellCount` of them.
    public let cells: [GalleryCell]
    /// The manager every load goes through.
    public let manager: ImageManager
    /// The size images are decoded to fit (a decode-time thumbnail), or `nil` for full size.
    public let thumbnailPixelSize: PixelSize?
    /// Whether animations play in the cells on screen (frames decoded as they play) rather
    /// than show their first frame.
    public let playsAnimations: Bool
    /// Where changes happen and loads call back.
    public let queue = DispatchQueue(label: "SwiftWebImage.GalleryModel")
    private let state = NIOLockedValueBox(State())
    private let onChange: @Sendable () -> Void

    /// Creates a gallery of `urls` in a grid of `columns` × `rows` cells; `onChange` runs
    /// after anything visible changed: on ``queue``, or on `animationClock`'s thread for a
    /// new animation frame. With a `thumbnailPixelSize`, images are decoded (and cached) at
    /// the size a cell shows instead of in full. With `playsAnimations`, the animations on
    /// screen play by `animationClock`, their decoded frames counted in `frameBudget`, and a
    /// cell that scrolls away stops its animation and frees its frames.
    public init(
        urls: [URL],
        columns: Int,
        rows: Int,
        prefetchScreens: Int = 1,
        thumbnailPixelSize: PixelSize? = nil,
        playsAnimations: Bool = false,
        animationClock: any AnimationClock = SystemAnimationClock(),
        frameBudget: AnimationFrameBudget = .shared,
        manager: ImageManager = .shared,
        placeholder: Image = GalleryModel.defaultPlaceholder,
        onChange: @escaping @Sendable () -> Void = {}
    ) {
        self.urls = urls
        self.manager = manager
        self.thumbnailPixelSize = thumbnailPixelSize
        self.playsAnimations = playsAnimations
        self.onChange = onChange
        layout = GalleryLayout(itemCount: urls.count, columns: columns, rows: rows, prefetchScreens: prefetchScreens)
        cells = (0..<layout.cellCount).map { _ in
            GalleryCell(
                manager: manager, placeholder: placeholder, animationClock: animationClock, frameBudget: frameBudget,
                onChange: onChange)
        }
    }

    /// A mid-grey square.
    public static let defaultPlaceholder = Image(
        bitmap: Bitmap(width: 4, height: 4, pixels: Array([[UInt8]](repeating: [96, 96, 96, 255], count: 16).joined()))
    )

    /// The first row on screen.
    public var topRow: Int { state.withLockedValue { $0.topRow } }

    /// The items on screen.
    public var visibleRange: Range<Int> { layout.visibleRange(topRow: topRow) }

    /// The items being prefetched or waiting to be.
    public var prefetchRange: Range<Int> {
        let (top, forward) = state.withLockedValue { ($0.topRow, $0.scrollsForward) }
        return layout.prefetchRange(topRow: top, forward: forward)
    }

    /// What the loads have done so far.
    public var statistics: GalleryStatistics { state.withLockedValue { $0.statistics } }

    /// The items whose cell is loading now.
    public var loadingItems: Set<Int> { state.withLockedValue { Set($0.cellLoads.values) } }

    /// The items being prefetched now.
    public var prefetchingItems: Set<Int> { state.withLockedValue { Set($0.prefetches.keys) } }

    /// The items on screen whose animation is playing.
    public var playingItems: Set<Int> {
        Set(cells.compactMap { cell in cell.animationPlayback.player?.isPlaying == true ? cell.item : nil })
    }

    /// Animation frames shown so far, over all cells.
    public var animationFramesShown: Int { cells.reduce(0) { $0 + $1.animationPlayback.framesShown } }

    /// Animation frames skipped so far because they were not decoded in time, over all cells.
    public var animationFramesSkipped: Int { cells.reduce(0) { $0 + $1.animationPlayback.framesSkipped } }

    /// The cell that shows `item`, when it is on screen.
    public func cell(forItem item: Int) -> GalleryCell? {
        guard visibleRange.contains(item) else { return nil }
        let cell = cells[layout.cellIndex(forItem: item)]
        return cell.item == item ? cell : nil
    }

    // MARK: Scrolling

    /// Loads the first screen (and prefetches the next); later calls do nothing.
    public func start() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync {
            guard !state.withLockedValue({ $0.hasStarted }) else { return }
            state.withLockedValue { $0.hasStarted = true }
            show(topRow: 0)
        }
    }

    /// Scrolls so that `row` is the first row on screen (clamped to the rows there are).
    public func scroll(toRow row: Int) {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync {
            state.withLockedValue { $0.hasStarted = true }
            show(topRow: layout.clampedTopRow(row))
        }
    }

    /// Scrolls by `rows` rows (negative: up).
    public func scroll(byRows rows: Int) {
        scroll(toRow: topRow + rows)
    }

    /// Scrolls by `pages` screens (negative: up).
    public func scroll(byPages pages: Int) {
        scroll(byRows: pages * layout.rows)
    }

    /// Cancels every load, the cells' and the prefetches', and stops the animations.
    public func stop() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync {
            for cell in cells {
                cell.cancelCurrentImageLoad()
                cell.animationPlayback.isOnScreen = false
            }
            let prefetches = state.withLockedValue { state in
                defer {
                    state.prefetches = [:]
                    state.cellLoads = [:]
                    state.statistics.inFlight = 0
                }
                return Array(state.prefetches.values)
            }
            for operation in prefetches {
                operation.cancel()
            }
        }
    }

    /// Runs `body` on ``queue`` once no cell on screen is loading (at once if none is).
    public func whenVisibleLoadsSettle(_ body: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            let settled = state.withLockedValue { state in
                if state.cellLoads.isEmpty { return true }
                state.settledWaiters.append(body)
                return false
            }
            if settled { body() }
        }
    }

    /// Returns once no cell on screen is loading.
    public func visibleLoadsSettled() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenVisibleLoadsSettle { continuation.resume() }
        }
    }

    // MARK: Loading (on the queue)

    private func show(topRow: Int) {
        let forward = state.withLockedValue { state in
            if topRow != state.topRow { state.scrollsForward = topRow > state.topRow }
            state.topRow = topRow
            return state.scrollsForward
        }
        let visible = layout.visibleRange(topRow: topRow)
        for (index, cell) in cells.enumerated() {
            let offset = (index - visible.lowerBound % layout.cellCount + layout.cellCount) % layout.cellCount
            let item = visible.lowerBound + offset
            if visible.contains(item) {
                if cell.item != item { load(item, into: cell, at: index) }
            } else if cell.item != nil {
                cancelLoad(of: cell, at: index)
                cell.prepare(forItem: nil)
                cell.play(nil)
            }
        }
        prefetch(layout.prefetchRange(topRow: topRow, forward: forward), keeping: visible)
        updateInFlight()
        onChange()
        notifyIfSettled()
    }

    private func load(_ item: Int, into cell: GalleryCell, at index: Int) {
        cancelLoad(of: cell, at: index)
        cell.prepare(forItem: item)
        state.withLockedValue { state in
            state.cellLoads[index] = item
            state.statistics.cellLoadsStarted += 1
        }
        let completed: GalleryCell.CompletionHandler = { [self] response in
            // A load this model cancelled was counted by `cancelLoad`, and its cell may
            // already be loading again.
            guard response.error?.code != .cancelled || !isCancelledByModel(cell: cell, index: index, item: item) else {
                return
            }
            cell.record(response)
            state.withLockedValue { state in
                state.cellLoads[index] = nil
                if response.error != nil {
                    state.statistics.errors += 1
                } else {
                    switch response.cacheType {
                    case .memory: state.statistics.memoryHits += 1
                    case .disk: state.statistics.diskHits += 1
                    default: state.statistics.downloads += 1
                    }
                }
            }
            updateInFlight()
            onChange()
            notifyIfSettled()
        }
        if playsAnimations {
            cell.setAnimatedImage(with: request(for: item), placeholder: cell.placeholder, completed: completed)
        } else {
            cell.setImage(with: request(for: item), placeholder: cell.placeholder, completed: completed)
        }
    }

    /// Whether the cancelled load of `item` into `cell` was cancelled by ``cancelLoad(of:at:)``
    /// (not counted as loading any more, or replaced by a newer load).
    private func isCancelledByModel(cell: GalleryCell, index: Int, item: Int) -> Bool {
        let isRecorded = state.withLockedValue { $0.cellLoads[index] == item }
        return !isRecorded || cell.imageOperations.isLoading(forKey: cell.imageOperationKey)
    }

    private func cancelLoad(of cell: GalleryCell, at index: Int) {
        let wasLoading = state.withLockedValue { $0.cellLoads.removeValue(forKey: index) != nil }
        cell.cancelCurrentImageLoad()
        if wasLoading {
            state.withLockedValue { $0.statistics.cellLoadsCancelled += 1 }
        }
    }

    /// Cancels prefetches outside `window` and `visible`, and starts those missing in `window`.
    private func prefetch(_ window: Range<Int>, keeping visible: Range<Int>) {
        let (stale, wanted) = state.withLockedValue { state -> ([ImageLoadOperation], [Int]) in
            let staleItems = state.prefetches.keys.filter { !window.contains($0) && !visible.contains($0) }
            let stale = staleItems.compactMap { state.prefetches.removeValue(forKey: $0) }
            state.statistics.prefetchesCancelled += stale.count
            return (stale, window.filter { state.prefetches[$0] == nil })
        }
        for operation in stale {
            operation.cancel()
        }
        for item in wanted {
            let operation = manager.loadImage(with: request(for: item, options: .lowPriority)) { [self] _ in
                // A cancelled prefetch answers after `prefetch` dropped it, maybe once a newer
                // prefetch of the item runs: only an ended one leaves.
                state.withLockedValue { state in
                    if state.prefetches[item]?.isFinished != false { state.prefetches[item] = nil }
                }
                updateInFlight()
            }
            guard !operation.isFinished else { continue }
            state.withLockedValue { state in
                state.prefetches[item] = operation
                state.statistics.prefetchesStarted += 1
            }
        }
    }

    /// The request of `item`; a gallery that plays animations asks for them frame by frame
    /// in its prefetches too, so that the cells find them in memory.
    private func request(for item: Int, options: ImageOptions = []) -> ImageRequest {
        let options = playsAnimations ? options.union(.decodeFramesOnDemand) : options
        return ImageRequest(url: urls[item], options: options, thumbnailPixelSize: thumbnailPixelSize, callbackQueue: queue)
    }

    private func updateInFlight() {
        state.withLockedValue { state in
            let items = Set(state.cellLoads.values).union(state.prefetches.keys)
            state.statistics.inFlight = items.count
            state.statistics.peakInFlight = max(state.statistics.peakInFlight, items.count)
        }
    }

    private func notifyIfSettled() {
        let waiters = state.withLockedValue { state -> [@Sendable () -> Void] in
            guard state.cellLoads.isEmpty else { return [] }
            defer { state.settledWaiters = [] }
            return state.settledWaiters
        }
        for waiter in waiters {
            waiter()
        }
    }
}
