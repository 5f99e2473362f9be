import WebImageCore
extension JPEGMetadata {
    private static let orientationName: [UInt8] = Array("tiff:Orientation".utf8)

    /// The `tiff:Orientation` value in an XMP packet, written either as an attribute
    /// (`tiff:Orientation="6"`) or as an element (`<tiff:Orientation>6</tiff:Orientation>`),
    /// or `nil` when the packet has none.
    static func xmpOrientation(_ xmp: UnsafeRawBufferPointer) -> Int? {
        let name = orientationName
        var start = 0
        while start + name.count <= xmp.count {
            guard let found = firstIndex(of: name, in: xmp, from: start) else { return nil }
            var cursor = found + name.count
            start = cursor
            func skipSpaces() {
                while cursor < xmp.count, isSpace(xmp[cursor]) { cursor += 1 }
            }
            skipSpaces()
            guard cursor < xmp.count else { return nil }
            switch xmp[cursor] {
            case UInt8(ascii: "="):
                cursor += 1
                skipSpaces()
                guard cursor < xmp.count, xmp[cursor] == UInt8(ascii: "\"") || xmp[cursor] == UInt8(ascii: "'")
                else { continue }
                cursor += 1
            case UInt8(ascii: ">"):
                cursor += 1
                skipSpaces()
            default:
                continue
            }
            if let value = digits(in: xmp, at: cursor) { return value }
        }
        return nil
    }

    /// The number an XMP packet gives `name`, written either as an attribute
    /// (`hdrgm:HDRCapacityMax="3.5"`) or as an element, or `nil` when the packet has none.
    static func xmpNumber(_ name: String, in xmp: UnsafeRawBufferPointer) -> Double? {
        let pattern = Array(name.utf8)
        guard var cursor = firstIndex(of: pattern, in: xmp, from: 0) else { return nil }
        cursor += pattern.count
        while cursor < xmp.count,
            isSpace(xmp[cursor]) || xmp[cursor] == UInt8(ascii: "=") || xmp[cursor] == UInt8(ascii: "\"")
                || xmp[cursor] == UInt8(ascii: "'") || xmp[cursor] == UInt8(ascii: ">")
        {
            cursor += 1
        }
        var text = ""
        while cursor < xmp.count, text.count < 32, "0123456789.-+eE".utf8.contains(xmp[cursor]) {
            text.append(Character(Unicode.Scalar(xmp[cursor])))
            cursor += 1
        }
        return Double(text)
    }

    /// Whether `byte` is XML white space.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The decimal number (at most three digits) starting at `offset`.
    private static func digits(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        var value = 0
        var cursor = offset
        while cursor < bytes.count, cursor - offset < 3, (0x30...0x39).contains(bytes[cursor]) {
            value = value * 10 + Int(bytes[cursor] - 0x30)
            cursor += 1
        }
        return cursor > offset ? value : nil
    }

    /// Whether `pattern` occurs in `bytes`.
    static func contains(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer) -> Bool {
        firstIndex(of: pattern, in: bytes, from: 0) != nil
    }

    /// Where `pattern` first occurs in `bytes` at or after `start`.
    static func firstIndex(of pattern: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var index = start
        while index <= bytes.count - pattern.count {
            if bytes[index] == first, pattern.indices.allSatisfy({ bytes[index + $0] == pattern[$0] }) {
                return index
            }
            index += 1
        }
        return nil
    }
}
