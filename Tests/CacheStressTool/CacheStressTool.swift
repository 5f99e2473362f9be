import Foundation
import WebImage

/// A child process for the cache tests: stores self-checking entries into a shared
/// `ImageCache` folder and reports each store on standard output, so a test can run
/// several at once or kill one in the middle of a write.
///
/// Usage: `CacheStressTool <directory> <key prefix> <count (0 = until killed)> <max disk size>
/// <key variety> <largest entry in bytes>`
///
/// Store `i` writes key `<prefix>-<i % variety>.bin`. The entries are made up front (so the
/// loop does nothing but store, and a kill lands in a write) as
/// `[body length: 8 bytes LE][body: key, newline, pseudo-random bytes][checksum: 8 bytes LE]`,
/// the checksum being FNV-1a over the body's 64-bit words then its tail bytes.
@main
struct CacheStressTool {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 7, let count = Int(arguments[3]), let maxSize = Int(arguments[4]),
            let variety = Int(arguments[5]), variety > 0, let largest = Int(arguments[6]), largest > 1024
        else {
            FileHandle.standardError.write(Data("usage: CacheStressTool <directory> <prefix> <count> <max size> <variety> <largest>\n".utf8))
            exit(2)
        }
        var configuration = ImageCacheConfiguration()
        configuration.maxDiskSize = maxSize
        let cache = ImageCache(
            namespace: "stress",
            directory: URL(fileURLWithPath: arguments[1], isDirectory: true),
            configuration: configuration
        )
        var generator = XorShift(seed: UInt64(getpid()) &* 0x9E37_79B9_7F4A_7C15 | 1)
        let entries = (0..<variety).map { index in
            let key = "\(arguments[2])-\(index).bin"
            let payloadSize = 1024 + Int(generator.next() % UInt64(largest - 1024))
            return (key, entry(key: key, payloadSize: payloadSize, generator: &generator))
        }
        var index = 0
        while count == 0 || index < count {
            let (key, data) = entries[index % variety]
            try await cache.store(nil, data: data, forKey: key, scope: .disk)
            FileHandle.standardOutput.write(Data("stored \(index)\n".utf8))
            index += 1
        }
        cache.diskCache?.waitForMaintenance()
    }

    /// Entry bytes for `key` with a payload of about `payloadSize` pseudo-random bytes,
    /// written word by word into the final buffer: this tool runs under ThreadSanitizer in
    /// an unoptimised build, where appending a word at a time took seconds per process.
    static func entry(key: String, payloadSize: Int, generator: inout XorShift) -> Data {
        let prefix = Array(key.utf8) + [UInt8(ascii: "\n")]
        let words = payloadSize / 8
        let bodyCount = prefix.count + 8 * words
        var data = Data(count: 8 + bodyCount + 8)
        data.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: UInt64(bodyCount).littleEndian, toByteOffset: 0, as: UInt64.self)
            bytes.baseAddress!.advanced(by: 8).copyMemory(from: prefix, byteCount: prefix.count)
            var word = bytes.baseAddress!.advanced(by: 8 + prefix.count)
            for _ in 0..<words {
                word.storeBytes(of: generator.next(), as: UInt64.self)
                word += 8
            }
            let sum = checksum(of: UnsafeRawBufferPointer(rebasing: bytes[8..<(8 + bodyCount)]))
            bytes.storeBytes(of: sum.littleEndian, toByteOffset: 8 + bodyCount, as: UInt64.self)
        }
        return data
    }
}

/// FNV-1a over the 64-bit words of `bytes`, then over its remaining bytes.
package func checksum(of bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    let words = bytes.count / 8
    for index in 0..<words {
        hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x100_0000_01B3
    }
    for index in (words * 8)..<bytes.count {
        hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01B3
    }
    return hash
}

/// A fast pseudo-random generator for payload bytes.
struct XorShift {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
