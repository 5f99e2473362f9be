extension DiskCache {
    /// The longest extension kept: a file name may have 255 bytes, 32 go to the hash and
    /// one to the dot.
    static let maxExtensionLength = 255 - 32 - 1

    /// The file name an entry for `key` gets: the lowercase hexadecimal MD5 of the key's
    /// UTF-8 bytes, plus the extension of the key's URL path when it has one.
    ///
    /// The extension comes from the last component of the path only, after percent
    /// decoding, with any query or fragment ignored (`https://x/a.jpg?x=1` keeps `.jpg`,
    /// `…/staticmap?format=png` gets none). `:`, `/` and NUL characters are removed from
    /// it and an extension longer than 222 bytes is dropped, so every name is one plain
    /// component inside the cache folder whatever the key holds.
    public static func fileName(forKey key: String) -> String {
        let hash = MD5.hexDigest(of: key)
        guard let pathExtension = pathExtension(ofKey: key) else { return hash }
        return hash + "." + pathExtension
    }

    /// The extension of the key's URL path, cleaned as ``fileName(forKey:)`` describes.
    static func pathExtension(ofKey key: String) -> String? {
        // Searched as UTF-8 and with the standard library's `firstRange(of:)`: Foundation's
        // `range(of:)` goes through `NSString` on Linux, and the image server names a
        // result file on every cached answer.
        var path = key[...]
        if let end = path.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            path = path[..<end]
        }
        if let schemeEnd = path.firstRange(of: "://") {
            let afterScheme = path[schemeEnd.upperBound...]
            path = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? ""
        }
        let lastComponent = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        let name = percentDecoded(lastComponent).filter { $0 != ":" && $0 != "/" && $0 != "\0" }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let pathExtension = String(name[name.index(after: dot)...])
        guard !pathExtension.isEmpty, pathExtension.utf8.count <= maxExtensionLength else { return nil }
        return pathExtension
    }

    private static func percentDecoded(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = bytes[index + 1].hexDigitValue, let low = bytes[index + 2].hexDigitValue
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
