import Foundation
import WebImage

/// Writes `webimage fetch --save` images into a folder: the original bytes when the image
/// is the download itself, re-encoded otherwise, under a name taken from the URL.
struct ImageSaver {
    /// The folder written into.
    let folder: URL
    private var usedNames: Set<String> = []

    /// Creates the folder if it is missing.
    init(folder path: String) throws {
        folder = URL(fileURLWithPath: path, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Saves the image of `result` and returns the file's path; `nil` when it could not be
    /// written. `order` names images whose URL gives no usable name.
    mutating func save(_ result: FetchResult, isThumbnail: Bool, order: Int) -> String? {
        guard let image = result.response?.image else { return nil }
        let bytes: Data
        let format: ImageFormat
        if !isThumbnail, let original = result.records.lazy.compactMap({ $0.response?.data }).first {
            bytes = original
            format = ImageFormat(sniffing: original)
        } else {
            format = ImageCodersManager.shared.preferredFormat(for: image)
            guard let encoded = try? ImageCodersManager.shared.encode(image, as: format) else { return nil }
            bytes = encoded
        }
        let file = folder.appendingPathComponent(uniqueName(base: baseName(of: result.argument, order: order), format: format))
        guard FileManager.default.createFile(atPath: file.path, contents: bytes) else { return nil }
        return file.path
    }

    private func baseName(of argument: String, order: Int) -> String {
        let last = URL(argument: argument).map { $0.scheme == "data" ? "" : $0.deletingPathExtension().lastPathComponent } ?? ""
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_@.")
        let cleaned = String(last.filter { allowed.contains($0) }).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return cleaned.isEmpty ? "image-\(order + 1)" : cleaned
    }

    private mutating func uniqueName(base: String, format: ImageFormat) -> String {
        let suffix = format.fileExtension.map { ".\($0)" } ?? ".bin"
        var name = base + suffix
        var number = 2
        while usedNames.contains(name) {
            name = "\(base)-\(number)\(suffix)"
            number += 1
        }
        usedNames.insert(name)
        return name
    }
}
