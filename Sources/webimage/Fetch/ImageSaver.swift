import Foundation
import WebImage

/// Writes `webimage fetch --save` images into a folder: the original bytes when the image
/// is the download itself, re-encoded otherwise, under a name taken from the URL.
struct ImageSaver {
    /// The folder written into.
    let folder: URL
    private var usedNames: Set<String> = []
    /// The next number to try after each name already taken, so that many URLs of one
    /// name cost one look-up each, not a walk past every number used before.
    private var nextNumbers: [String: Int] = [:]

    /// Creates the folder if it is missing.
    init(folder path: String) throws {
        folder = URL(fileURLWithPath: path, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Saves the image of `result` and returns the file's path; `nil` when it could not be
    /// written. `order` names images whose URL gives no usable name.
    mutating func save(_ result: FetchResult, isThumbnail: Bool, order: Int) -> String? {
        guard let image = result.records.first?.kept?.image else { return nil }
        let bytes: Data
        let format: ImageFormat
        if !isThumbnail, let original = result.records.lazy.compactMap({ $0.kept?.data }).first {
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

    /// The longest base name kept as it is: with a `-N` for uniqueness and the longest
    /// extension, a name stays well under the 255 bytes file systems allow.
    static let maximumBaseLength = 200

    private func baseName(of argument: String, order: Int) -> String {
        let last = URL(argument: argument).map { $0.scheme == "data" ? "" : $0.deletingPathExtension().lastPathComponent } ?? ""
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_@.")
        let cleaned = String(last.filter { allowed.contains($0) }).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        guard !cleaned.isEmpty else { return "image-\(order + 1)" }
        return Self.shortened(cleaned)
    }

    /// `name` (ASCII, as cleaned) when it is short enough; otherwise its start and a hash
    /// of the whole, so that long names differing only at their end stay distinct.
    static func shortened(_ name: String) -> String {
        guard name.utf8.count > maximumBaseLength else { return name }
        // FNV-1a, 64 bits: stable across runs and platforms, unlike `Hasher`.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        let digest = String(hash, radix: 16)
        let hex = String(repeating: "0", count: 16 - digest.count) + digest
        return String(name.prefix(maximumBaseLength - hex.count - 1)) + "-" + hex
    }

    private mutating func uniqueName(base: String, format: ImageFormat) -> String {
        let suffix = format.fileExtension.map { ".\($0)" } ?? ".bin"
        let plain = base + suffix
        var name = plain
        var number = nextNumbers[plain, default: 2]
        while usedNames.contains(name) {
            name = "\(base)-\(number)\(suffix)"
            number += 1
        }
        nextNumbers[plain] = number
        usedNames.insert(name)
        return name
    }
}
