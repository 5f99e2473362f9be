#if SVG
import CXML2
import Foundation

/// The errors libxml2 reports while `SVGMarkupScreen` reads a document, kept instead of
/// printed; the first one becomes the refusal's message.
final class SVGParserErrors {
    /// The message of the first error (not warning), without its line break.
    private(set) var first: String?

    /// Keeps `error`'s message when it is the first error.
    func record(_ error: xmlError) {
        guard first == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue, let message = error.message else { return }
        first = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
#endif
