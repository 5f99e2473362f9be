import Foundation

/// Runs a built executable of this package as a child process under `/usr/bin/time` and
/// reports the child's own peak resident memory.
///
/// The measurement cannot come from this process's `wait4` or `RUSAGE_CHILDREN`: a
/// child started with `posix_spawn` (a `vfork`-style clone sharing this process's
/// memory until `exec`) inherits this test process's peak as its own. `time` starts the
/// tool with a real `fork`, so its figure is the tool's alone.
package struct PeakMemoryRun {
    /// Where GNU time lives (Debian's `time` package).
    package static let timeCommand = "/usr/bin/time"
    /// Whether GNU time is installed.
    package static let isAvailable = FileManager.default.isExecutableFile(atPath: timeCommand)

    /// The tool's exit status.
    package let status: Int32
    /// The tool's peak resident set, in bytes.
    package let peakResidentBytes: Int

    package struct Failed: Error {
        package let reason: String
    }

    /// Runs `executable` with `arguments`, output discarded, and waits for it.
    package static func run(_ executable: URL, _ arguments: [String], scratch: URL) async throws -> PeakMemoryRun {
        let report = scratch.appendingPathComponent("peak-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: timeCommand)
        process.arguments = ["-f", "%M", "-o", report.path, executable.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let status = try await ChildProcess(process).waitForExit(within: 300)
        let text = try String(contentsOf: report, encoding: .utf8)
        guard let kibibytes = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw Failed(reason: "no peak in time's report: \(text)")
        }
        return PeakMemoryRun(status: status, peakResidentBytes: kibibytes * 1024)
    }
}
