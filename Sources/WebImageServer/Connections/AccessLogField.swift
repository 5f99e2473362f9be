/// A value of the access log taken from a request (its method and path, and failure
/// messages that may quote the spec or the source URL), escaped so that nothing a client
/// sends can break a log line or forge another: backslashes and double quotes are
/// backslash-escaped, and control characters and Unicode line breaks are written as
/// `\n`, `\r`, `\t` or `\u{…}`.
enum AccessLogField {
    /// `text`, escaped.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscaping) else { return text }
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where needsEscaping(scalar): escaped += "\\u{\(String(scalar.value, radix: 16))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Whether `scalar` is written escaped: a backslash, a double quote, a C0 or C1 control
    /// character, DEL, or a Unicode line or paragraph separator.
    private static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x5C, 0x22, 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}
