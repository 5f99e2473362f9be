import Foundation

/// The built-in disk level of an ``ImageCache``.
extension DiskCache: ImageDiskStorage {
    /// A cache folder at `directory` with `config`'s age and size limits, expiry date and
    /// read-only folders.
    public convenience init(directory: URL, config: ImageCacheConfiguration) {
        self.init(
            directory: directory,
            maxAge: config.maxDiskAge,
            maxSize: config.maxDiskSize,
            expiryType: config.diskCacheExpiryType,
            readOnlyDirectories: config.readOnlyDirectories
        )
    }
}
