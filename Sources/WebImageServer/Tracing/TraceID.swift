/// A W3C trace id: 16 bytes, never all zero, written as 32 lowercase hexadecimal digits.
public struct TraceID: Sendable, Hashable, CustomStringConvertible {
    /// The first eight bytes, big-endian.
    public let high: UInt64
    /// The last eight bytes, big-endian: what a `traceidratio` sampler reads.
    public let low: UInt64

    /// The id of `high` and `low`; `nil` for all zero, which W3C reserves as invalid.
    public init?(high: UInt64, low: UInt64) {
        guard high != 0 || low != 0 else { return nil }
        self.high = high
        self.low = low
    }

    /// The id spelled by exactly 32 lowercase hexadecimal digits; `nil` otherwise, or for all zero.
    public init?(hex: some StringProtocol) {
        let digits = hex.utf8
        guard digits.count == 32, let high = HexDigits.value(of: digits.prefix(16)), let low = HexDigits.value(of: digits.suffix(16)) else {
            return nil
        }
        self.init(high: high, low: low)
    }

    /// A new random id.
    static func random() -> TraceID {
        while true {
            if let id = TraceID(high: .random(in: .min ... .max), low: .random(in: .min ... .max)) { return id }
        }
    }

    /// The 32 lowercase hexadecimal digits, as `traceparent` and OTLP/JSON write them.
    public var description: String { HexDigits.text(high) + HexDigits.text(low) }
}
