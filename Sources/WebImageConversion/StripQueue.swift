import Dispatch
import NIOConcurrencyHelpers
import WebImageCore

/// Hands strips of decoded rows from a decoding thread to an encoding thread, holding
/// at most `capacity` strips at once so that memory stays a few strips whatever the
/// image size. Buffers go back to the decoder once encoded and are reused.
final class StripQueue: Sendable {
    /// What the decoder hands over.
    enum Item: Sendable {
        /// `rowCount` rows at the start of `pixels`.
        case rows(_ pixels: [UInt8], rowCount: Int)
        /// Every row was decoded.
        case end
        /// Decoding failed; nothing follows.
        case failed(ImageError)
    }

    private struct State {
        var items: [Item] = []
        var spareBuffers: [[UInt8]] = []
        var isCancelled = false
    }

    private let state = NIOLockedValueBox(State())
    private let itemsReady = DispatchSemaphore(value: 0)
    private let freeSlots: DispatchSemaphore
    private let stripBytes: Int

    /// A queue of strips of `stripBytes` bytes each, at most `capacity` of them in flight.
    init(capacity: Int, stripBytes: Int) {
        self.freeSlots = DispatchSemaphore(value: max(1, capacity))
        self.stripBytes = stripBytes
    }

    /// For the decoder: waits until a strip may be decoded and returns a buffer for it,
    /// or `nil` once the encoder gave up.
    func bufferToFill() -> [UInt8]? {
        freeSlots.wait()
        return state.withLockedValue { state in
            guard !state.isCancelled else { return nil }
            return state.spareBuffers.popLast() ?? [UInt8](repeating: 0, count: stripBytes)
        }
    }

    /// For the decoder: hands over a strip, the end, or the failure.
    func send(_ item: Item) {
        state.withLockedValue { $0.items.append(item) }
        itemsReady.signal()
    }

    /// For the encoder: waits for the next item.
    func receive() -> Item {
        itemsReady.wait()
        return state.withLockedValue { $0.items.removeFirst() }
    }

    /// For the encoder: gives an encoded strip's buffer back for reuse.
    func recycle(_ buffer: [UInt8]) {
        state.withLockedValue { $0.spareBuffers.append(buffer) }
        freeSlots.signal()
    }

    /// For the encoder: stops the decoder at its next strip.
    func cancel() {
        state.withLockedValue { $0.isCancelled = true }
        freeSlots.signal()
    }
}
