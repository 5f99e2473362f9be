import Foundation

/// Runs the built `webimage` tool as a child process. The tool is built with the tests
/// (the test target depends on it) and sits beside the test bundle, in
/// `<scratch path>/<triple>/<configuration>`, whichever scratch path the build used.
package enum CommandLineTool {
    /// What one run of the tool left behind.
    package struct Output: Sendable {
        /// The exit status.
        package let status: Int32
        /// Everything written to standard output.
        package let standardOutput: String
        /// Everything written to standard error.
        package let standardError: String

        /// The non-empty lines of standard output.
        package var lines: [String] {
            standardOutput.split(separator: "\n").map(String.init)
        }

        /// Standard output's lines parsed as JSON objects.
        package func jsonLines() throws -> [[String: Any]] {
            try lines.map { line in
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    throw NotJSON(line: line)
                }
                return object
            }
        }
    }

    package struct NotJSON: Error {
        package let line: String
    }

    /// Runs the tool (or another `program`) with `arguments` and waits for it to exit.
    /// `XDG_CACHE_HOME` points into `scratch`, so a run never touches the user's own cache; a
    /// run still going after ten minutes is terminated, and the call throws. Standard input
    /// reads `input`, or nothing; `environment` adds to (or replaces in) the tests' own
    /// environment.
    package static func run(
        _ arguments: [String], scratch: URL, input: Data? = nil, environment extra: [String: String] = [:], program: URL? = nil
    ) async throws -> Output {
        let process = Process()
        process.executableURL = try program ?? BuiltExecutable.url(named: "webimage")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = scratch.appendingPathComponent("xdg-cache").path
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let outputFile = scratch.appendingPathComponent("stdout-\(UUID().uuidString)")
        let errorFile = scratch.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        let error = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = output
        process.standardError = error
        if let input {
            let inputFile = scratch.appendingPathComponent("stdin-\(UUID().uuidString)")
            try input.write(to: inputFile)
            process.standardInput = try FileHandle(forReadingFrom: inputFile)
        } else {
            process.standardInput = FileHandle.nullDevice
        }

        let child = try ChildProcess(process)
        let status = try await child.waitForExit(within: 600)
        try output.close()
        try error.close()
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        return Output(
            status: status,
            standardOutput: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
        )
    }
}
