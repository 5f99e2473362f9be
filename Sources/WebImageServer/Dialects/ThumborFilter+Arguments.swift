extension ThumborFilter {
    /// The arguments when they are `count` of thumbor's parameters, the first `required` of
    /// them present, each matching its pattern; `nil` otherwise, for thumbor skips a filter
    /// whose arguments do not match.
    func arguments(_ patterns: [ThumborFilter.Pattern], required: Int) -> [String]? {
        guard arguments.count <= patterns.count else { return nil }
        for (index, pattern) in patterns.enumerated() {
            let text = index < arguments.count ? arguments[index] : ""
            if text.isEmpty {
                guard index >= required else { return nil }
                continue
            }
            guard pattern.matches(text) else { return nil }
        }
        return arguments + Array(repeating: "", count: patterns.count - arguments.count)
    }

    /// The patterns of thumbor's filter parameters.
    enum Pattern: Sendable {
        /// `[-]?\d+`
        case number
        /// `\d+`
        case positiveNumber
        /// `\d*[1-9]\d*`
        case positiveNonZeroNumber
        /// A decimal number, optionally negative.
        case decimalNumber
        /// `True`, `true`, `False`, `false`, `1` or `0`.
        case boolean
        /// Any text without a comma.
        case string
        /// Letters, digits and `_` (a colour's name or hexadecimal value).
        case word
        /// A radius, or two separated by `|`.
        case radii
        /// Decimal numbers separated by `;` (a convolution's kernel).
        case kernel
        /// A watermark's place along one axis: `[-]?\d+p?`, `center` or `repeat`.
        case watermarkPosition
        /// A watermark's size in percent of the image's side: `[-]?\d+` or `none`.
        case watermarkRatio

        /// Whether `text` matches the pattern whole.
        func matches(_ text: String) -> Bool {
            func digits(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy(\.isDigitASCII) }
            switch self {
            case .number: return digits(text.hasPrefix("-") ? text.dropFirst() : Substring(text))
            case .positiveNumber: return digits(Substring(text))
            case .positiveNonZeroNumber: return digits(Substring(text)) && text.contains { $0 != "0" }
            case .decimalNumber:
                let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
                let parts = body.split(separator: ".", omittingEmptySubsequences: false)
                return parts.count <= 2 && parts.allSatisfy { $0.allSatisfy(\.isDigitASCII) } && body.contains(where: \.isDigitASCII)
            case .boolean: return ["True", "true", "False", "false", "1", "0"].contains(text)
            case .string: return !text.isEmpty
            case .word: return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            case .kernel:
                return text.split(separator: ";", omittingEmptySubsequences: false).allSatisfy { Pattern.decimalNumber.matches(String($0)) }
            case .watermarkPosition:
                guard text != "center", text != "repeat" else { return true }
                return Pattern.number.matches(text.hasSuffix("p") ? String(text.dropLast()) : text)
            case .watermarkRatio: return text == "none" || Pattern.number.matches(text)
            case .radii:
                let parts = text.split(separator: "|", omittingEmptySubsequences: false)
                return parts.count <= 2 && parts.allSatisfy { digits($0) }
            }
        }
    }

    /// A boolean argument as thumbor reads it.
    static func isTrue(_ text: String) -> Bool { ["True", "true", "1"].contains(text) }
}
