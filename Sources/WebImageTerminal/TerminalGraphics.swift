import WebImage
import Foundation

/// How a terminal can show pixels.
public enum TerminalGraphics: String, Sendable, CaseIterable {
    /// Upper-half-block characters in 24-bit colour: two pixels per cell, works in any
    /// modern terminal.
    case halfBlocks
    /// The kitty graphics protocol: real pixels (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// DEC sixel graphics: real pixels in a 216-colour palette (xterm -ti vt340, foot, mlterm).
    case sixel

    /// The best protocol the environment advertises: kitty when `TERM` or
    /// `KITTY_WINDOW_ID` names it, otherwise half blocks (sixel support cannot be told
    /// from the environment alone, so it is only used when asked for).
    public static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalGraphics {
        if environment["KITTY_WINDOW_ID"] != nil || environment["TERM"] == "xterm-kitty"
            || environment["TERM_PROGRAM"] == "WezTerm" || environment["TERM"] == "xterm-ghostty"
        {
            return .kitty
        }
        return .halfBlocks
    }
}
