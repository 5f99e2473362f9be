extension StringProtocol {
    /// The text with its percent-escapes decoded, or `nil` when a `%` is not followed by two
    /// hexadecimal digits or the bytes decoded are not UTF-8: what Foundation's
    /// `removingPercentEncoding` answers, without its trip through `CFString` on Linux (the
    /// image server decodes every request's spec and source this way).
    package var percentDecoded: String? {
        guard utf8.contains(UInt8(ascii: "%")) else { return String(self) }
        return percentDecodedBytes.flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// The bytes of the text with every `%XX` replaced by its byte; `nil` when a `%` is not
    /// followed by two hexadecimal digits.
    package var percentDecodedBytes: [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}

extension UInt8 {
    /// The value of this ASCII hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`); `nil` for any
    /// other byte.
    var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
