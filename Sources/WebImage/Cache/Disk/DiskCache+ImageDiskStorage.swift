import Foundation

/// The built-in disk level of an ``ImageCache``.
extension DiskCache: ImageDiskStorage {
    /// A cache folder at `directory` with `configuration`'s age and size limits, expiry date and
    /// read-only folders.
    public convenience init(directory: URL, configuration: ImageCacheConfiguration) {
        self.init(
            directory: directory,
            maxAge: configuration.maxDiskAge,
            maxSize: configuration.maxDiskSize,
            expiryType: configuration.diskCacheExpiryType,
            readOnlyDirectories: configuration.readOnlyDirectories
        )
    }
}
