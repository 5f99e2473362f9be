/// HMAC (RFC 2104) over ``SHA1``: thumbor's URL signatures.
enum HMACSHA1 {
    /// The authentication code of `message` under `key`.
    static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var blockKey = key.count > SHA1.blockByteCount ? SHA1.hash(key) : key
        blockKey += [UInt8](repeating: 0, count: SHA1.blockByteCount - blockKey.count)
        let inner = SHA1.hash(blockKey.map { $0 ^ 0x36 } + message)
        return SHA1.hash(blockKey.map { $0 ^ 0x5c } + inner)
    }
}
