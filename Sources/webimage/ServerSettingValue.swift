#if Server
import Foundation

/// The value of a ``ServerSetting``, read from its text by the setting's kind.
enum ServerSettingValue: Equatable, Sendable {
    /// A ``ServerSetting/Kind/text`` setting's text.
    case text(String)
    /// An ``ServerSetting/Kind/integer`` setting's number.
    case integer(Int)
    /// A ``ServerSetting/Kind/seconds`` setting's seconds.
    case seconds(Double)
    /// A ``ServerSetting/Kind/size`` setting's bytes.
    case size(Int)
    /// A ``ServerSetting/Kind/flag`` setting's state.
    case flag(Bool)
    /// A ``ServerSetting/Kind/list`` setting's items.
    case list([String])

    /// `texts` read as a value of `kind`: any number of texts for a list, one for the others.
    ///
    /// - Throws: ``Problem`` saying what the texts should have been.
    init(kind: ServerSetting.Kind, texts: [String]) throws(Problem) {
        if kind == .list {
            guard texts != [""] else { throw Problem("is empty") }
            guard !texts.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) else { throw Problem("has an empty item") }
            self = .list(texts)
        } else {
            guard texts.count == 1 else { throw Problem("must be one value, not a list") }
            try self.init(kind: kind, text: texts[0])
        }
    }

    /// `text` read as a value of `kind` (a list of one item for a list).
    ///
    /// - Throws: ``Problem`` saying what the text should have been.
    init(kind: ServerSetting.Kind, text: String) throws(Problem) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch kind {
        case .text:
            guard !trimmed.isEmpty else { throw Problem("is empty") }
            self = .text(trimmed)
        case .integer:
            guard let integer = Int(trimmed) else { throw Problem(kind.complaint) }
            self = .integer(integer)
        case .seconds:
            guard let seconds = Double(trimmed), seconds.isFinite else { throw Problem(kind.complaint) }
            self = .seconds(seconds)
        case .size:
            guard let size = ByteSize(argument: trimmed) else { throw Problem(kind.complaint) }
            self = .size(size.bytes)
        case .flag:
            switch trimmed.lowercased() {
            case "true", "yes", "1": self = .flag(true)
            case "false", "no", "0": self = .flag(false)
            default: throw Problem(kind.complaint)
            }
        case .list:
            try self.init(kind: .list, texts: [text])
        }
    }

    /// What is wrong with a text, said after the name of the setting and its source.
    struct Problem: Error {
        /// The complaint: "is not a whole number".
        let complaint: String

        /// A problem saying `complaint`.
        init(_ complaint: String) {
            self.complaint = complaint
        }
    }

    /// The value as `--print-config` shows it; a secret as `***` and its length.
    func shown(secret: Bool) -> String {
        switch self {
        case .text(let text): return secret ? Self.masked(text) : text
        case .integer(let integer): return String(integer)
        case .seconds(let seconds): return seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
        case .size(let bytes): return ByteSize(bytes: bytes).defaultValueDescription
        case .flag(let flag): return String(flag)
        case .list(let items):
            let shownItems = items.map { secret ? Self.masked($0) : Self.quoted($0) }
            return "[" + shownItems.joined(separator: ", ") + "]"
        }
    }

    /// `***` and the number of characters hidden.
    private static func masked(_ text: String) -> String {
        "***(\(text.count) characters)"
    }

    /// `text` in double quotes, as a JSON string.
    private static func quoted(_ text: String) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]) else { return text }
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
#endif
