import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal in full-screen mode: raw input (no echo, no line buffering, reads that
/// time out), the alternate screen, a hidden cursor and mouse-wheel reports — and its
/// restoration, on ``restore()``, on deinit, and after SIGINT, SIGTERM or SIGHUP (which
/// set ``interrupted`` so the caller's loop ends and restores).
final class TerminalSession {
    private static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[2J"
    private static let leaveSequence = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?25h\u{1B}[0m\u{1B}[?1049l"

    private var original = termios()
    private var isActive = false
    private var signalSources: [any DispatchSourceSignal] = []
    private let interruption = NIOLockedValueBox(false)

    /// Switches the terminal to full-screen raw mode; `nil` when standard input or output
    /// is not a terminal.
    init?() {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, tcgetattr(STDIN_FILENO, &original) == 0 else {
            return nil
        }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 0
            characters[Int(VTIME)] = 1
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return nil }
        isActive = true
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [interruption] in interruption.withLockedValue { $0 = true } }
            source.resume()
            signalSources.append(source)
        }
        write(Self.enterSequence)
    }

    deinit {
        restore()
    }

    /// Whether a signal asked the program to end.
    var interrupted: Bool { interruption.withLockedValue { $0 } }

    /// The terminal's size in characters, when it can be asked.
    static func size() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// The bytes typed since the last call; empty after a tenth of a second without input.
    func readInput() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    /// Writes `text` to the terminal at once.
    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Leaves the alternate screen and puts back the terminal's settings; safe to call twice.
    func restore() {
        guard isActive else { return }
        isActive = false
        write(Self.leaveSequence)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        for source in signalSources {
            source.cancel()
        }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_DFL)
        }
    }
}
