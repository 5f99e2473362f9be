/// Lowercase hexadecimal as W3C Trace Context writes ids: exactly the digits `0-9a-f`, no
/// sign, no prefix, no upper case.
enum HexDigits {
    /// The value of at most 16 lowercase hexadecimal digits; `nil` for any other character.
    static func value(of digits: some Collection<UInt8>) -> UInt64? {
        guard digits.count <= 16 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        return value
    }

    /// `value` as 16 lowercase hexadecimal digits, zero-padded.
    static func text(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
