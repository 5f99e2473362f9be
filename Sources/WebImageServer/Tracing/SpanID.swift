/// A W3C span id (`parent-id` in `traceparent`): 8 bytes, never all zero, written as 16
/// lowercase hexadecimal digits.
public struct SpanID: Sendable, Hashable, CustomStringConvertible {
    /// The eight bytes, big-endian.
    public let value: UInt64

    /// The id of `value`; `nil` for zero, which W3C reserves as invalid.
    public init?(_ value: UInt64) {
        guard value != 0 else { return nil }
        self.value = value
    }

    /// The id spelled by exactly 16 lowercase hexadecimal digits; `nil` otherwise, or for zero.
    public init?(hex: some StringProtocol) {
        let digits = hex.utf8
        guard digits.count == 16, let value = HexDigits.value(of: digits) else { return nil }
        self.init(value)
    }

    /// A new random id.
    static func random() -> SpanID {
        while true {
            if let id = SpanID(.random(in: .min ... .max)) { return id }
        }
    }

    /// The 16 lowercase hexadecimal digits, as `traceparent` and OTLP/JSON write them.
    public var description: String { HexDigits.text(value) }
}
