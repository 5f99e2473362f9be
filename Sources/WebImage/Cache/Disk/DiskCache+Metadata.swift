import Foundation

extension DiskCache {
    /// The extended attribute that holds an entry's metadata (Linux allows unprivileged
    /// processes only the `user.` namespace).
    static let metadataAttributeName = "user.swiftwebimage.metadata"

    /// The metadata stored with the entry for `key`, if any.
    public func metadata(forKey key: String) -> DiskCacheEntryMetadata? {
        let name = Self.fileName(forKey: key)
        let file = path + "/" + name
        if FileSystem.fileSize(atPath: file) != nil {
            if let value = FileSystem.attribute(Self.metadataAttributeName, atPath: file) {
                return Self.decodeMetadata(value)
            }
            guard accounting.withLockedValue({ $0.usesSidecars }),
                let sidecar = FileSystem.read(path: sidecarPath + "/" + name, touchingAccessDate: false)
            else { return nil }
            return Self.decodeMetadata(Array(sidecar))
        }
        for readOnlyPath in readOnlyPaths {
            if let value = FileSystem.attribute(Self.metadataAttributeName, atPath: readOnlyPath + "/" + name) {
                return Self.decodeMetadata(value)
            }
        }
        return nil
    }

    /// Replaces (or, with `nil`, removes) the metadata of the entry for `key` — for
    /// example with new validators after the server answered `304 Not Modified`.
    ///
    /// - Throws: `ImageError.Code.notFound` when ``directory`` holds no entry for `key`,
    ///   `ImageError.Code.fileSystem` when the metadata cannot be written.
    public func setMetadata(_ metadata: DiskCacheEntryMetadata?, forKey key: String) throws(ImageError) {
        let name = Self.fileName(forKey: key)
        let file = path + "/" + name
        guard FileSystem.fileSize(atPath: file) != nil else {
            throw ImageError(.notFound, "the disk cache has no entry for \(key)")
        }
        let encoded = metadata.map(Self.encode)
        if !forcesSidecarMetadata, FileSystem.setAttribute(Self.metadataAttributeName, to: encoded, atPath: file) {
            if accounting.withLockedValue({ $0.usesSidecars }) {
                FileSystem.removeFile(atPath: sidecarPath + "/" + name)
            }
            return
        }
        if let encoded {
            try writeSidecar(encoded, name: name)
        } else {
            FileSystem.removeFile(atPath: sidecarPath + "/" + name)
        }
    }

    /// Writes metadata for the entry file `name` to its sidecar, atomically.
    func writeSidecar(_ value: [UInt8], name: String) throws(ImageError) {
        accounting.withLockedValue { $0.usesSidecars = true }
        try FileSystem.createDirectory(atPath: sidecarPath)
        let temporary = sidecarPath + "/" + FileSystem.temporaryName()
        _ = try FileSystem.createFile(at: temporary, contents: Data(value), attribute: nil)
        try FileSystem.rename(temporary, to: sidecarPath + "/" + name)
    }

    static func encode(_ metadata: DiskCacheEntryMetadata) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return (try? Array(encoder.encode(metadata))) ?? []
    }

    static func decodeMetadata(_ value: [UInt8]) -> DiskCacheEntryMetadata? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(DiskCacheEntryMetadata.self, from: Data(value))
    }
}
