import WebImageTerminal
/// What the reader of the gallery pressed or scrolled, decoded from the terminal's bytes.
enum GalleryKey: Equatable {
    case up, down, pageUp, pageDown, home, end, wheelUp, wheelDown, quit

    /// The keys in a chunk of terminal input: arrows, PgUp/PgDn, Home/End, space, `q`,
    /// and SGR mouse-wheel reports (`ESC [ < 64 ; x ; y M` up, `65` down). Anything else
    /// is skipped.
    static func keys(in bytes: [UInt8]) -> [GalleryKey] {
        var keys: [GalleryKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == 0x1B, index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
                switch byte {
                case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03: keys.append(.quit)
                case UInt8(ascii: "j"): keys.append(.down)
                case UInt8(ascii: "k"): keys.append(.up)
                case UInt8(ascii: " "): keys.append(.pageDown)
                case UInt8(ascii: "b"): keys.append(.pageUp)
                default: break
                }
                continue
            }
            index += 1
            var body: [UInt8] = []
            while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) {
                body.append(bytes[index])
                index += 1
            }
            guard index < bytes.count else { break }
            let final = bytes[index]
            index += 1
            if let key = key(final: final, parameters: String(decoding: body, as: UTF8.self)) {
                keys.append(key)
            }
        }
        return keys
    }

    private static func key(final: UInt8, parameters: String) -> GalleryKey? {
        switch (final, parameters) {
        case (UInt8(ascii: "A"), _): return .up
        case (UInt8(ascii: "B"), _): return .down
        case (UInt8(ascii: "H"), _): return .home
        case (UInt8(ascii: "F"), _): return .end
        case (UInt8(ascii: "~"), "5"): return .pageUp
        case (UInt8(ascii: "~"), "6"): return .pageDown
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return .home
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return .end
        case (UInt8(ascii: "M"), let mouse) where mouse.hasPrefix("<"):
            let button = mouse.dropFirst().split(separator: ";").first.flatMap { Int($0) }
            return button == 64 ? .wheelUp : button == 65 ? .wheelDown : nil
        default: return nil
        }
    }
}
