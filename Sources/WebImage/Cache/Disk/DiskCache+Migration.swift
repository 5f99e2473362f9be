import Foundation
import Glibc

extension DiskCache {
    /// Moves the entries of an older cache folder into ``directory``, then deletes the old
    /// folder — SDWebImage's `moveCacheDirectoryFromPath:toPath:`, for a program whose
    /// cache moved (a new namespace, `XDG_CACHE_HOME`, a new version's layout).
    ///
    /// Each entry keeps its bytes, metadata (its extended attribute moves with the file; a
    /// sidecar is moved beside it) and dates, so expiry and oldest-first trimming go on as
    /// before. An entry ``directory`` already holds is newer and stays: the old one is
    /// dropped with the old folder. Entries are renamed into place, or copied atomically
    /// when the folders are on different file systems. Blocks: call it where the cache's
    /// other disk work runs (``ImageCache/migrateDiskCache(from:)`` does).
    ///
    /// - Returns: The number of entries moved in; 0 when `oldDirectory` does not exist or
    ///   is ``directory`` itself.
    /// - Throws: `ImageError.Code.fileSystem` when an entry cannot be moved; the entries
    ///   moved so far stay moved and the old folder is kept with the rest.
    @discardableResult
    public func migrateEntries(from oldDirectory: URL) throws(ImageError) -> Int {
        let oldPath = oldDirectory.standardizedFileURL.path
        guard oldPath != path, FileManager.default.fileExists(atPath: oldPath) else { return 0 }
        let oldSidecars = oldPath + "/.metadata"
        var moved = 0
        for entry in FileSystem.scan(directory: oldPath).visible {
            let source = oldPath + "/" + entry.name
            let destination = path + "/" + entry.name
            guard FileSystem.fileSize(atPath: destination) == nil else { continue }
            let sidecar = FileSystem.read(path: oldSidecars + "/" + entry.name, touchingAccessDate: false)
            try moveFile(source, to: destination)
            if let sidecar, !FileSystem.setAttribute(Self.metadataAttributeName, to: Array(sidecar), atPath: destination) {
                try writeSidecar(Array(sidecar), name: entry.name)
            }
            recordChange(entry.size)
            moved += 1
        }
        do {
            try FileManager.default.removeItem(atPath: oldPath)
        } catch {
            throw ImageError(.fileSystem, "cannot remove the old cache folder \(oldPath): \(error)")
        }
        return moved
    }

    /// Renames `source` to `destination`; across file systems, copies it (bytes, metadata
    /// attribute and dates) to a temporary file renamed into place, then removes `source`.
    private func moveFile(_ source: String, to destination: String) throws(ImageError) {
        if Glibc.rename(source, destination) == 0 { return }
        guard errno == EXDEV else { throw FileSystem.error("cannot move \(source) to \(destination)") }
        guard let data = FileSystem.read(path: source, touchingAccessDate: false) else {
            throw FileSystem.error("cannot read \(source)")
        }
        let attribute = FileSystem.attribute(Self.metadataAttributeName, atPath: source)
        let temporary = path + "/" + FileSystem.temporaryName()
        _ = try FileSystem.createFile(
            at: temporary, contents: data, attribute: attribute.map { (name: Self.metadataAttributeName, value: $0) })
        var status = stat()
        if stat(source, &status) == 0 {
            var times = [status.st_atim, status.st_mtim]
            _ = utimensat(AT_FDCWD, temporary, &times, 0)
        }
        try FileSystem.rename(temporary, to: destination)
        FileSystem.removeFile(atPath: source)
    }
}
