import Foundation

/// What a folder holds, for tests that check what a command left on disk.
package enum FolderContents {
    /// The paths (relative to `folder`) of the regular files anywhere under it, hidden ones included.
    package static func regularFiles(under folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
    }
}
