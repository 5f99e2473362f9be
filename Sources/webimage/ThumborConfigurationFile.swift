#if Server
import ArgumentParser

/// thumbor's configuration file (`thumbor.conf`), which is Python: `NAME = value` lines
/// read for the literal forms of ``ThumborConfigValue``, with `#` comments and lists or
/// tuples that go on over several lines. Any other form of Python (an import, a call, a
/// name) stops the server, naming the line, rather than being guessed at.
struct ThumborConfigurationFile {
    /// The values by key, in the file's last word for each.
    let values: [String: ThumborConfigValue]
    /// The keys in the order the file first sets them.
    let keys: [String]

    /// Reads `text`.
    ///
    /// - Throws: `ValidationError` naming the line that is not `NAME = literal`.
    init(_ text: String) throws {
        var values: [String: ThumborConfigValue] = [:]
        var keys: [String] = []
        var statement = ""
        var firstLine = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = Self.withoutComment(line)
            if statement.isEmpty {
                guard !code.trimmingWhitespace().isEmpty else { continue }
                firstLine = index + 1
            }
            statement += (statement.isEmpty ? "" : " ") + code
            guard Self.isBalanced(statement) else { continue }
            let parts = statement.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }) else {
                throw ValidationError("thumbor configuration, line \(firstLine): expected NAME = value")
            }
            var reader = Reader(text: Substring(parts[1]))
            guard let value = reader.value(), reader.atEnd else {
                throw ValidationError(
                    "thumbor configuration, line \(firstLine): \(parts[0]) is not a literal this server reads (a string, number, True, False, None, or a list of them)")
            }
            if values[parts[0]] == nil { keys.append(parts[0]) }
            values[parts[0]] = value
            statement = ""
        }
        guard statement.isEmpty else { throw ValidationError("thumbor configuration, line \(firstLine): a bracket or quote is not closed") }
        self.values = values
        self.keys = keys
    }

    /// `line` without a `#` comment outside quotes.
    private static func withoutComment(_ line: Substring) -> String {
        var quote: Character?
        var result = ""
        for character in line {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#" {
                break
            }
            result.append(character)
        }
        return result
    }

    /// Whether `text`'s brackets and quotes are closed.
    private static func isBalanced(_ text: String) -> Bool {
        var depth = 0
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "'", "\"": quote = character
            case "[", "(": depth += 1
            case "]", ")": depth -= 1
            default: break
            }
        }
        return depth <= 0 && quote == nil
    }

    /// Reads one literal at a time.
    private struct Reader {
        var text: Substring

        var atEnd: Bool {
            mutating get {
                skipSpaces()
                return text.isEmpty
            }
        }

        mutating func skipSpaces() { text = text.drop { $0 == " " || $0 == "\t" || $0 == "\r" } }

        mutating func value() -> ThumborConfigValue? {
            skipSpaces()
            guard let first = text.first else { return nil }
            switch first {
            case "'", "\"": return string()
            case "r" where text.dropFirst().first == "'" || text.dropFirst().first == "\"":
                text = text.dropFirst()
                return string()
            case "[", "(": return list(closing: first == "[" ? "]" : ")")
            default:
                let word = text.prefix { $0.isLetter || $0.isNumber || "._-+*e ".contains($0) && $0 != "," }
                let trimmed = word.trimmingWhitespace()
                switch trimmed {
                case "True":
                    text = text.dropFirst(word.count)
                    return .bool(true)
                case "False":
                    text = text.dropFirst(word.count)
                    return .bool(false)
                case "None":
                    text = text.dropFirst(word.count)
                    return ThumborConfigValue.none
                default:
                    var product = 1.0
                    for factor in trimmed.split(separator: "*") {
                        guard let value = Double(factor.trimmingWhitespace().replacingOccurrences(of: "_", with: "")), value.isFinite else { return nil }
                        product *= value
                    }
                    guard !trimmed.isEmpty else { return nil }
                    text = text.dropFirst(word.count)
                    return .number(product)
                }
            }
        }

        private mutating func string() -> ThumborConfigValue? {
            guard let quote = text.first else { return nil }
            text = text.dropFirst()
            guard let end = text.firstIndex(of: quote) else { return nil }
            let content = String(text[..<end])
            text = text[text.index(after: end)...]
            return .string(content)
        }

        private mutating func list(closing: Character) -> ThumborConfigValue? {
            text = text.dropFirst()
            var items: [ThumborConfigValue] = []
            while true {
                skipSpaces()
                if text.first == closing {
                    text = text.dropFirst()
                    return .list(items)
                }
                guard let item = value() else { return nil }
                items.append(item)
                skipSpaces()
                if text.first == "," { text = text.dropFirst() } else if text.first != closing { return nil }
            }
        }
    }
}
#endif
