/// BlurHash's base-83 digits: the alphabet, and whole numbers written in and read from it.
enum Base83 {
    /// The 83 digits in order of value.
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

    /// Each ASCII byte's digit value, or `nil` for a byte that is not a digit.
    private static let values: [UInt8?] = {
        var values = [UInt8?](repeating: nil, count: 128)
        for (value, digit) in digits.enumerated() { values[Int(digit)] = UInt8(value) }
        return values
    }()

    /// Appends `value` to `text` as `length` digits, most significant first.
    ///
    /// - Precondition: `0 <= value < 83^length`.
    static func append(_ value: Int, length: Int, to text: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<length { divisor *= 83 }
        precondition(value >= 0 && value < divisor * 83, "value does not fit the digits")
        var rest = value
        for _ in 0..<length {
            text.append(digits[rest / divisor])
            rest %= divisor
            divisor /= 83
        }
    }

    /// The number the digits spell, or `nil` when one of them is not a base-83 digit.
    static func value<Digits: Collection<UInt8>>(of text: Digits) -> Int? {
        var value = 0
        for byte in text {
            guard byte < 128, let digit = values[Int(byte)] else { return nil }
            value = value * 83 + Int(digit)
        }
        return value
    }
}
