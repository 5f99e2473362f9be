import NIOCore

/// The downloads waiting for a free slot: one line per priority, so choosing the next one
/// takes constant time however many wait.
struct DownloadQueue {
    /// The lines, indexed by ``DownloadPriority/rawValue``.
    private var lines = [CircularBuffer<DownloadOperation>](repeating: CircularBuffer(), count: 3)
    private let order: DownloadExecutionOrder

    init(order: DownloadExecutionOrder) {
        self.order = order
    }

    /// The number of waiting downloads.
    var count: Int { lines.reduce(0) { $0 + $1.count } }

    /// Whether no download waits.
    var isEmpty: Bool { lines.allSatisfy(\.isEmpty) }

    /// Adds `operation` behind the others of `priority`.
    mutating func append(_ operation: DownloadOperation, priority: DownloadPriority) {
        lines[priority.rawValue].append(operation)
    }

    /// Takes the download to start next: the highest priority first, and within one
    /// priority the oldest (FIFO) or the newest (LIFO).
    mutating func popNext() -> DownloadOperation? {
        for priority in lines.indices.reversed() where !lines[priority].isEmpty {
            return order == .fifo ? lines[priority].removeFirst() : lines[priority].removeLast()
        }
        return nil
    }

    /// Takes `operation` out of the queue, wherever it waits.
    mutating func remove(_ operation: DownloadOperation) {
        for priority in lines.indices {
            lines[priority].removeAll { $0 === operation }
        }
    }

    /// Moves `operation` from the line of `old` to the back of the line of `new`; does
    /// nothing when it does not wait in the line of `old` (it has just left the queue).
    mutating func move(_ operation: DownloadOperation, from old: DownloadPriority, to new: DownloadPriority) {
        guard old != new, let index = lines[old.rawValue].firstIndex(where: { $0 === operation }) else { return }
        lines[old.rawValue].remove(at: index)
        lines[new.rawValue].append(operation)
    }
}
