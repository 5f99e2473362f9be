import Foundation

/// The tool's side of the terminal: whether standard error is one, writing to it, and
/// the units the tool prints.
enum Terminal {
    /// Whether standard error is a terminal; progress bars are drawn only then.
    static let isInteractive = isatty(STDERR_FILENO) == 1

    /// Writes `text` to standard error as it is (no newline added).
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `bytes` in megabytes (10⁶ bytes), such as `12.34 MB`.
    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.2f MB", Double(bytes) / 1_000_000)
    }

    /// `bytes` in the largest unit that keeps the number readable: `512 B`, `12.3 KB`, `4.56 MB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1_000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(format: "%.1f KB", Double(bytes) / 1_000) }
        return megabytes(Int64(bytes))
    }

    /// A duration in seconds with two decimals, such as `1.25 s`.
    static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f s", duration.seconds)
    }
}

extension Duration {
    /// The duration as a number of seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
