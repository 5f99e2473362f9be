import Foundation

extension URL {
    /// The URL a command-line argument names: a URL with a scheme (`http:`, `https:`,
    /// `file:`, `data:`) as written, or the path of an existing file; `nil` when it is neither.
    init?(argument: String) {
        let trimmed = argument.trimmingCharacters(in: .whitespaces)
        if let url = URL(string: trimmed), url.scheme != nil {
            self = url
        } else if !trimmed.isEmpty, FileManager.default.fileExists(atPath: trimmed) {
            self = URL(fileURLWithPath: trimmed)
        } else {
            return nil
        }
    }
}
