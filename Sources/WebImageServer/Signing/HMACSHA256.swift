/// HMAC (RFC 2104) over ``SHA256``: the image server's URL signatures.
enum HMACSHA256 {
    /// The authentication code of `message` under `key`.
    static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var blockKey = key.count > SHA256.blockByteCount ? SHA256.hash(key) : key
        blockKey += [UInt8](repeating: 0, count: SHA256.blockByteCount - blockKey.count)
        var inner = SHA256()
        inner.update(blockKey.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(blockKey.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// Whether `code` is the authentication code of `message` under `key`, compared in time
    /// that does not depend on where the two differ.
    static func isValid(_ code: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        let expected = authenticationCode(for: message, key: key)
        guard code.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (given, wanted) in zip(code, expected) {
            difference |= given ^ wanted
        }
        return difference == 0
    }
}
