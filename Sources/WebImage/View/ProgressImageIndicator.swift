import NIOConcurrencyHelpers

/// An indicator that shows how much of the image has arrived, as a bar.
public final class ProgressImageIndicator: ImageIndicator {
    private struct State {
        var isAnimating = false
        var progress = 0.0
    }

    private let state = NIOLockedValueBox(State())
    private let onChange: (@Sendable () -> Void)?

    /// Creates a stopped indicator; `onChange` runs whenever it starts, stops or advances.
    public init(onChange: (@Sendable () -> Void)? = nil) {
        self.onChange = onChange
    }

    /// Whether the indicator is showing.
    public var isAnimating: Bool { state.withLockedValue { $0.isAnimating } }

    /// The fraction received so far, from 0 to 1.
    public var progress: Double { state.withLockedValue { $0.progress } }

    /// Shows the bar, empty.
    public func startAnimating() {
        state.withLockedValue { $0 = State(isAnimating: true, progress: 0) }
        onChange?()
    }

    /// Hides the bar; it reads full, as SDWebImage's progress does when a load ends.
    public func stopAnimating() {
        state.withLockedValue { $0 = State(isAnimating: false, progress: 1) }
        onChange?()
    }

    /// Moves the bar to `fraction` (clamped to 0…1; it never moves back while showing).
    public func updateProgress(_ fraction: Double) {
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        state.withLockedValue { $0.progress = max($0.progress, clamped) }
        onChange?()
    }

    /// The bar drawn in `width` characters (`▰` done, `▱` to come), or spaces when hidden.
    public func bar(width: Int) -> String {
        let (isAnimating, progress) = state.withLockedValue { ($0.isAnimating, $0.progress) }
        guard width > 0 else { return "" }
        guard isAnimating else { return String(repeating: " ", count: width) }
        let done = min(width, Int((progress * Double(width)).rounded(.down)))
        return String(repeating: "▰", count: done) + String(repeating: "▱", count: width - done)
    }
}
