import Foundation

/// A program started for a test and left running until ``stop()``: its standard output is
/// collected, and ``waitForLine(containing:)`` waits for a line it prints.
final class BackgroundProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let lock = NSLock()
    private var collected = ""

    /// Starts `executable` with `arguments`.
    init(_ executable: URL, _ arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.collected += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    /// The first line of output containing `text`, waiting up to `seconds` for it.
    func waitForLine(containing text: String, seconds: Double = 30) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let line = lock.withLock { collected.split(separator: "\n").first { $0.contains(text) } }
            if let line { return String(line) }
            guard process.isRunning else { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "no line with '\(text)' from \(process.executableURL?.path ?? "")"])
    }

    /// Whether the program is still running.
    var isRunning: Bool { process.isRunning }

    /// Sends SIGTERM and waits for the program to exit; returns its status.
    @discardableResult
    func stop() async -> Int32 {
        if process.isRunning { process.terminate() }
        while process.isRunning {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        output.fileHandleForReading.readabilityHandler = nil
        return process.terminationStatus
    }
}
