import Foundation

/// One folder's manifest, `_manifests/<folder>.csv`: each file's path, size as Pillow
/// read it, and the upstream verdict (`ok`, `bad` or `either`).
package struct CorpusManifest {
    /// One listed file.
    package struct Entry {
        /// The path relative to the folder.
        package let path: String
        /// The width and height Pillow read, when it read them.
        package let size: (width: Int, height: Int)?
        /// The frame count Pillow read, when it read the file.
        package let frames: Int?
        /// `ok`, `bad` or `either`.
        package let expected: String
    }

    /// The entries, in the manifest's order.
    package let entries: [Entry]

    /// Reads the manifest of `folder`.
    package init(folder: String) throws {
        let text = try String(contentsOf: Corpus.url("_manifests/\(folder).csv"), encoding: .utf8)
        var rows = CorpusManifest.rows(text)
        let header = rows.removeFirst()
        func column(_ name: String) -> Int { header.firstIndex(of: name)! }
        let path = column("path"), width = column("width"), height = column("height")
        let frames = column("frames"), expected = column("expected")
        entries = rows.filter { $0.count == header.count }.map { row in
            let size = Int(row[width]).flatMap { w in Int(row[height]).map { (w, $0) } }
            return Entry(path: row[path], size: size, frames: Int(row[frames]), expected: row[expected])
        }
    }

    /// The entries whose path ends with one of `extensions` (compared case-insensitively).
    package func entries(withExtensions extensions: Set<String>) -> [Entry] {
        entries.filter { extensions.contains(($0.path as NSString).pathExtension.lowercased()) }
    }

    /// Splits CSV text into rows of fields, honouring double-quoted fields.
    private static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var previous: Character?
        for character in text.replacingOccurrences(of: "\r\n", with: "\n") {
            if quoted {
                if character == "\"" {
                    quoted = false
                } else {
                    field.append(character)
                }
            } else {
                switch character {
                case "\"":
                    if previous == "\"" { field.append("\"") }
                    quoted = true
                case ",":
                    row.append(field)
                    field = ""
                case "\n":
                    row.append(field)
                    rows.append(row)
                    row = []
                    field = ""
                default:
                    field.append(character)
                }
            }
            previous = character
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }
}
