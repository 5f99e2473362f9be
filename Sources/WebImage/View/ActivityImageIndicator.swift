import NIOConcurrencyHelpers

/// An indicator that only says "loading": a spinner that advances one step per frame drawn.
public final class ActivityImageIndicator: ImageIndicator {
    /// The spinner's steps, as one-character strings.
    public static let spinnerSteps = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    private let animating = NIOLockedValueBox(false)
    private let onChange: (@Sendable () -> Void)?

    /// Creates a stopped indicator; `onChange` runs whenever it starts or stops.
    public init(onChange: (@Sendable () -> Void)? = nil) {
        self.onChange = onChange
    }

    /// Whether the indicator is showing.
    public var isAnimating: Bool { animating.withLockedValue { $0 } }

    /// Shows the spinner.
    public func startAnimating() {
        animating.withLockedValue { $0 = true }
        onChange?()
    }

    /// Hides the spinner.
    public func stopAnimating() {
        animating.withLockedValue { $0 = false }
        onChange?()
    }

    /// An activity indicator shows no progress.
    public func updateProgress(_ fraction: Double) {}

    /// The spinner step for frame number `tick`, or a space when stopped.
    public func symbol(tick: Int) -> String {
        guard isAnimating else { return " " }
        return Self.spinnerSteps[abs(tick) % Self.spinnerSteps.count]
    }
}
