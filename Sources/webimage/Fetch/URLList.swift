import ArgumentParser
import Foundation

/// A file of URLs for `--from`: one URL or file path per line, blank lines and lines
/// starting with `#` skipped, `-` for standard input.
enum URLList {
    /// The URLs (as written) listed in the file at `path`.
    static func read(_ path: String) throws -> [String] {
        let data: Data? = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
        guard let data, let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("cannot read the URL list \(path)")
        }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
