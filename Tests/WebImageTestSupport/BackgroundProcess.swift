import Foundation
import Glibc

/// A program started for a test and left running until ``stop()``: its standard output is
/// collected, and ``waitForLine(containing:seconds:)`` waits for a line it prints; its
/// standard error is kept apart, for a failing test to show (``errorOutput``). A program
/// a test leaves running (it threw before stopping it) is killed when the value goes away.
package final class BackgroundProcess: @unchecked Sendable {
    private let child: ChildProcess
    private let output = Pipe()
    private let errors = Pipe()
    private let executable: String
    private let lock = NSLock()
    private var collected = ""
    private var collectedErrors = ""

    /// Starts `executable` with `arguments`.
    package init(_ executable: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        self.executable = executable.path
        child = try ChildProcess(process)
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.collected += String(decoding: data, as: UTF8.self) }
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock {
                // The last 64 KiB are enough to show why a program failed.
                self.collectedErrors += String(decoding: data, as: UTF8.self)
                if self.collectedErrors.utf8.count > 1 << 17 { self.collectedErrors = String(self.collectedErrors.suffix(1 << 16)) }
            }
        }
    }

    deinit {
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        child.send(SIGKILL)
    }

    /// The first line of output containing `text`, waiting up to `seconds` for it (or until
    /// the program exits). The default is long because it costs nothing when the line comes:
    /// a `webimage serve --demo` under ThreadSanitizer on a loaded machine once took more
    /// than 30 s to make its samples and listen.
    package func waitForLine(containing text: String, seconds: Double = 300) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let line = lock.withLock { collected.split(separator: "\n").first { $0.contains(text) } }
            if let line { return String(line) }
            guard child.isRunning else { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "no line with '\(text)' from \(executable)"])
    }

    /// The end of what the program wrote to its standard error so far (its log, a
    /// sanitizer's report, a fatal error's message).
    package var errorOutput: String { lock.withLock { collectedErrors } }

    /// Whether the program is still running.
    package var isRunning: Bool { child.isRunning }

    /// The program's peak resident set so far, in bytes (`VmHWM` in `/proc/<pid>/status`);
    /// `nil` once it has exited.
    package var peakResidentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(child.processIdentifier)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        let kibibytes = line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return kibibytes.map { $0 * 1024 }
    }

    /// Sends SIGTERM and waits for the program to exit; returns its status. A program still
    /// running five minutes later is killed, and the call returns -1.
    @discardableResult
    package func stop() async -> Int32 {
        child.send(SIGTERM)
        let status = (try? await child.waitForExit(within: 300)) ?? -1
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        return status
    }
}
