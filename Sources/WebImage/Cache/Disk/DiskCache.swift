import Foundation
import NIOConcurrencyHelpers

/// A folder of cached bytes, one file per key, that keeps its size limit by itself.
///
/// Every entry lives at `<directory>/<file name>` where the name is derived from the key
/// (see ``fileName(forKey:)``), so no key reaches outside the folder. Writes go to a
/// hidden temporary file in the same folder and are renamed into place, so a reader
/// (in this process or another) sees the old entry or the new one, never half of one —
/// even when the writer is killed. Several processes may share the folder.
///
/// The cache keeps a running total of its size: opening it starts a scan in the
/// background (it never delays the first lookup), and each store adds its bytes. With a
/// ``maxSize``, the total is also kept in the folder, under a file lock, for every
/// process that writes there (a `.size` file changed under `flock`), so that several processes
/// filling one folder see each other's stores. When a store pushes the total past
/// ``maxSize``, a background trim runs SDWebImage's cleaning — expired entries first, then
/// the oldest until the folder is under half of ``maxSize`` — and measures the folder,
/// which also corrects the shared total.
/// Trims and the clean-up after ``removeAll()`` never run on a caller's thread.
///
/// The methods block on file I/O: call them from an I/O executor (``ImageCache`` does),
/// never from the cooperative pool or an event loop.
public final class DiskCache: Sendable {
    /// How old a temporary file must be before a scan deletes it as a leftover of a
    /// crashed writer; younger ones may belong to a live writer in another process.
    static let staleTemporaryFileAge: TimeInterval = 60

    /// The folder the entries are written to.
    public let directory: URL
    /// Folders searched, read-only, when an entry is not in ``directory``
    /// (pre-bundled images; SDWebImage's `customPaths`). They hold files named as
    /// ``fileName(forKey:)`` says and are never written, trimmed or cleared.
    public let readOnlyDirectories: [URL]
    /// Seconds after which an entry expires; negative means never.
    public let maxAge: TimeInterval
    /// The size in bytes the folder is kept under; 0 means unlimited.
    public let maxSize: Int
    /// Which date of an entry counts for expiry and for oldest-first trimming.
    public let expiryType: DiskCacheExpiryType

    let path: String
    let readOnlyPaths: [String]
    let sidecarPath: String
    let forcesSidecarMetadata: Bool
    let maintenanceQueue: DispatchQueue
    let accounting: NIOLockedValueBox<Accounting>
    let writeFailureObserver = NIOLockedValueBox<(@Sendable (DiskCacheWriteFailure) -> Void)?>(nil)
    let sharedSize: DiskCacheSharedSize

    /// The running total and what the background maintenance is doing.
    struct Accounting {
        /// The folder's size in bytes as last scanned plus the changes since; `nil` until
        /// the first scan ends.
        var size: Int?
        /// Bytes added (or, negative, removed) since the running scan began.
        var changeSinceScan = 0
        /// Whether a trim is queued or running.
        var isTrimScheduled = false
        /// Whether metadata goes to sidecar files because the file system refuses
        /// extended attributes.
        var usesSidecars: Bool
    }

    /// Opens (creating if needed) the cache folder at `directory` and starts indexing it
    /// in the background.
    ///
    /// - Parameters:
    ///   - directory: The folder the entries are written to.
    ///   - maxAge: Seconds after which an entry expires; negative means never. One week by default.
    ///   - maxSize: The size in bytes to stay under; 0 means unlimited.
    ///   - expiryType: Which date of an entry counts for expiry and trimming.
    ///   - readOnlyDirectories: Extra folders searched, never written.
    public convenience init(
        directory: URL,
        maxAge: TimeInterval = 7 * 24 * 60 * 60,
        maxSize: Int = 0,
        expiryType: DiskCacheExpiryType = .accessDate,
        readOnlyDirectories: [URL] = []
    ) {
        self.init(
            directory: directory, maxAge: maxAge, maxSize: maxSize, expiryType: expiryType,
            readOnlyDirectories: readOnlyDirectories, forcesSidecarMetadata: false
        )
    }

    /// The designated initializer; `forcesSidecarMetadata` lets tests use sidecars on a
    /// file system that supports extended attributes.
    init(
        directory: URL,
        maxAge: TimeInterval,
        maxSize: Int,
        expiryType: DiskCacheExpiryType,
        readOnlyDirectories: [URL],
        forcesSidecarMetadata: Bool
    ) {
        self.directory = directory.standardizedFileURL
        self.readOnlyDirectories = readOnlyDirectories
        self.maxAge = maxAge
        self.maxSize = max(0, maxSize)
        self.expiryType = expiryType
        path = self.directory.path
        readOnlyPaths = readOnlyDirectories.map { $0.standardizedFileURL.path }
        sidecarPath = path + "/.metadata"
        sharedSize = DiskCacheSharedSize(directory: path)
        self.forcesSidecarMetadata = forcesSidecarMetadata
        maintenanceQueue = DispatchQueue(label: "SwiftWebImage.DiskCache.maintenance", qos: .utility)
        let hasSidecars = forcesSidecarMetadata || FileManager.default.fileExists(atPath: sidecarPath)
        accounting = NIOLockedValueBox(Accounting(usesSidecars: hasSidecars))
        try? FileSystem.createDirectory(atPath: path)
        maintenanceQueue.async { [self] in indexAtOpen() }
    }

    /// The path of the file that holds (or would hold) the entry for `key` in ``directory``.
    public func cachePath(forKey key: String) -> String {
        path + "/" + Self.fileName(forKey: key)
    }

    /// Whether an entry for `key` exists, in ``directory`` or a read-only folder.
    public func containsData(forKey key: String) -> Bool {
        let name = Self.fileName(forKey: key)
        return ([path] + readOnlyPaths).contains { FileSystem.fileSize(atPath: $0 + "/" + name) != nil }
    }

    /// The bytes stored for `key`, looked up in ``directory`` and then in the read-only
    /// folders; `nil` when there are none.
    ///
    /// A hit in ``directory`` with ``DiskCacheExpiryType/accessDate`` expiry marks the entry
    /// as used now.
    public func data(forKey key: String) -> Data? {
        let name = Self.fileName(forKey: key)
        if let data = FileSystem.read(path: path + "/" + name, touchingAccessDate: expiryType == .accessDate) {
            return data
        }
        for readOnlyPath in readOnlyPaths {
            if let data = FileSystem.read(path: readOnlyPath + "/" + name, touchingAccessDate: false) {
                return data
            }
        }
        return nil
    }

    /// Writes the entry for ``store(_:forKey:metadata:)``.
    func writeEntry(_ data: Data, forKey key: String, metadata: DiskCacheEntryMetadata?) throws(ImageError) {
        let name = Self.fileName(forKey: key)
        let destination = path + "/" + name
        let temporary = path + "/" + FileSystem.temporaryName()
        let encoded = metadata.map(Self.encode)
        let attribute = forcesSidecarMetadata ? nil : encoded.map { (name: Self.metadataAttributeName, value: $0) }
        let storedAttribute: Bool
        do {
            storedAttribute = try FileSystem.createFile(at: temporary, contents: data, attribute: attribute)
        } catch {
            // The folder may have been removed by another process: recreate it once.
            try FileSystem.createDirectory(atPath: path)
            storedAttribute = try FileSystem.createFile(at: temporary, contents: data, attribute: attribute)
        }
        if let encoded, !storedAttribute {
            try writeSidecar(encoded, name: name)
        } else if accounting.withLockedValue({ $0.usesSidecars }) {
            FileSystem.removeFile(atPath: sidecarPath + "/" + name)
        }
        let replacedSize = FileSystem.fileSize(atPath: destination) ?? 0
        try FileSystem.rename(temporary, to: destination)
        recordChange(data.count - replacedSize)
    }

    /// Removes the entry for `key` from ``directory`` (read-only folders are left alone).
    public func removeData(forKey key: String) {
        let name = Self.fileName(forKey: key)
        let file = path + "/" + name
        guard let size = FileSystem.fileSize(atPath: file) else { return }
        FileSystem.removeFile(atPath: file)
        if accounting.withLockedValue({ $0.usesSidecars }) {
            FileSystem.removeFile(atPath: sidecarPath + "/" + name)
        }
        recordChange(-size)
    }

    /// Empties ``directory`` at once: the folder is swapped for an empty one and the old
    /// files are deleted in the background. A folder that cannot be moved is reported to
    /// ``writeFailureHandler`` and left as it is.
    public func removeAll() {
        let trash = directory.deletingLastPathComponent().appendingPathComponent(trashName()).path
        let moved = rename(path, trash) == 0
        if !moved, errno != ENOENT {
            reportWriteFailure(.removal, FileSystem.error("cannot remove the entries of \(path)"))
            return
        }
        try? FileSystem.createDirectory(atPath: path)
        accounting.withLockedValue { state in
            state.size = 0
            state.changeSinceScan = 0
        }
        if moved {
            maintenanceQueue.async { try? FileManager.default.removeItem(atPath: trash) }
        }
    }

    /// The bytes of all entries in ``directory``, counted now.
    public func totalSize() -> Int {
        measure().size
    }

    /// The number of entries in ``directory``, counted now.
    public func totalCount() -> Int {
        measure().count
    }

    /// The number of entries in ``directory`` and their bytes, counted now in one scan.
    public func measure() -> (count: Int, size: Int) {
        let entries = FileSystem.scan(directory: path).visible
        return (entries.count, entries.reduce(0) { $0 + $1.size })
    }

    /// Blocks until the background work queued so far (indexing, trims, clean-ups) has
    /// finished, including the trim a finishing trim queues when stores made during its
    /// scan pushed the folder past the limit again; for tools that exit right after
    /// storing, and for tests.
    public func waitForMaintenance() {
        repeat {
            maintenanceQueue.sync {}
        } while accounting.withLockedValue { $0.isTrimScheduled }
    }

    /// The running total: the folder's size as this cache believes it, or `nil` before the
    /// first scan has finished.
    var trackedSize: Int? {
        accounting.withLockedValue { $0.size }
    }

    /// Adds `change` bytes to the running total, starting a trim when it passes ``maxSize``.
    func recordChange(_ change: Int) {
        // Other processes' stores count too: the folder's shared total decides.
        let sharedTotal = maxSize > 0 ? sharedSize.add(change) : nil
        let startsTrim = accounting.withLockedValue { state in
            state.changeSinceScan += change
            if let size = state.size {
                state.size = size + change
            }
            let total = max(state.size ?? 0, sharedTotal ?? 0)
            guard maxSize > 0, total > maxSize, !state.isTrimScheduled else { return false }
            state.isTrimScheduled = true
            return true
        }
        if startsTrim {
            maintenanceQueue.async { [self] in clean(removingExpired: true) }
        }
    }
}
