import Foundation

/// Runs the `webimage` executable (built next to the test binary) and collects its output.
enum WebImageToolProcess {
    struct ToolNotFound: Error {}

    /// The tool's binary: beside the running test executable in `.build/<triple>/<config>`.
    static var executable: URL {
        get throws {
            let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
            var folder = URL(fileURLWithPath: running).deletingLastPathComponent()
            while folder.path != "/" {
                let candidate = folder.appendingPathComponent("webimage")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                folder.deleteLastPathComponent()
            }
            throw ToolNotFound()
        }
    }

    /// Runs the tool with `arguments` on a thread of its own; returns its exit status and
    /// standard output.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let executable = try executable
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = executable
                    process.arguments = arguments
                    let output = Pipe()
                    process.standardOutput = output
                    process.standardError = FileHandle.nullDevice
                    process.standardInput = FileHandle.nullDevice
                    try process.run()
                    let data = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
                })
            }
        }
    }
}
