import Foundation
import NIOConcurrencyHelpers

/// A one-line progress bar on standard error, redrawn in place at most 20 times a second.
///
/// It draws nothing when standard error is not a terminal, so piped and scripted runs see
/// only their results. Safe to update from any thread.
final class ProgressBar: Sendable {
    private struct State {
        var completed = 0
        var bytes: Int64 = 0
        var partials = 0
        var lastDraw: UInt64 = 0
        var isFinished = false
    }

    private static let width = 30
    private static let redrawInterval: UInt64 = 50_000_000

    /// The words before the bar.
    let title: String
    /// The number of items the bar counts up to.
    let total: Int
    private let isEnabled: Bool
    private let state = NIOLockedValueBox(State())

    /// Creates a bar for `total` items; it draws only when `isEnabled`.
    init(_ title: String, total: Int, isEnabled: Bool = Terminal.isInteractive) {
        self.title = title
        self.total = total
        self.isEnabled = isEnabled
    }

    /// Sets the number of finished items.
    func update(completed: Int) {
        change { $0.completed = completed }
    }

    /// Counts one more finished item.
    func advance() {
        change { $0.completed += 1 }
    }

    /// Adds received bytes to the transfer shown after the count.
    func addBytes(_ count: Int64) {
        change { $0.bytes += count }
    }

    /// Counts one more partial image of a progressive load, shown after the bytes.
    func addPartial() {
        change { $0.partials += 1 }
    }

    /// Draws the final state and ends the line; later updates draw nothing.
    func finish() {
        guard isEnabled else { return }
        state.withLockedValue { state in
            guard !state.isFinished else { return }
            state.isFinished = true
            draw(state, ending: "\n")
        }
    }

    private func change(_ body: (inout State) -> Void) {
        guard isEnabled else { return }
        state.withLockedValue { state in
            guard !state.isFinished else { return }
            body(&state)
            let now = DispatchTime.now().uptimeNanoseconds
            guard now - state.lastDraw >= ProgressBar.redrawInterval || state.completed == total else { return }
            state.lastDraw = now
            draw(state, ending: "")
        }
    }

    private func draw(_ state: State, ending: String) {
        let fraction = total > 0 ? min(1, Double(state.completed) / Double(total)) : 1
        let filled = Int((fraction * Double(ProgressBar.width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: ProgressBar.width - filled)
        var line = "\r\u{1B}[2K\(title) [\(bar)] \(state.completed)/\(total)"
        if state.bytes > 0 { line += "  \(Terminal.megabytes(state.bytes))" }
        if state.partials > 0 { line += "  \(state.partials) partial images" }
        Terminal.writeError(line + ending)
    }
}
