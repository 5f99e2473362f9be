import Foundation
import CacheStressTool
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Runs the `CacheStressTool` executable (built next to the test bundle) as a child
/// process, and checks the self-describing entries it writes.
enum StressTool {
    /// Starts the tool storing into `<directory>/stress`; its standard output is piped.
    static func start(
        directory: URL, prefix: String, count: Int, maxSize: Int, variety: Int, largestEntry: Int = 256 * 1024
    ) throws -> (ChildProcess, Pipe) {
        let process = Process()
        process.executableURL = try BuiltExecutable.url(named: "CacheStressTool")
        process.arguments = [directory.path, prefix, String(count), String(maxSize), String(variety), String(largestEntry)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        return (try ChildProcess(process), output)
    }

    /// Reads the child's output until it has reported `count` stores (or ended).
    static func waitForStores(_ count: Int, from output: Pipe) {
        var seen = 0
        var pending = Data()
        while seen < count {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                seen += 1
                pending.removeSubrange(...newline)
            }
        }
    }

    /// Whether `data` is a complete, uncorrupted entry written for `key`.
    static func isIntact(_ data: Data, forKey key: String) -> Bool {
        let bytes = [UInt8](data)
        guard bytes.count >= 16 else { return false }
        let length = bytes[0..<8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        guard length >= 0, bytes.count == 16 + length else { return false }
        let body = bytes[8..<(8 + length)]
        let computed = body.withUnsafeBytes { checksum(of: $0) }
        let stored = bytes[(8 + length)...].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        return stored == computed && body.starts(with: Array(key.utf8) + [UInt8(ascii: "\n")])
    }

    /// Runs `body` on a thread of its own (reading a child's output blocks) and returns its
    /// value.
    static func runBlocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
