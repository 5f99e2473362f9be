import Foundation

extension ImageCache {
    /// Stores an image, its original bytes, or both, for `key` in the levels `scope` names.
    ///
    /// The memory cache (when ``ImageCacheConfiguration/shouldCacheImagesInMemory`` is on) is
    /// updated before this method returns. The disk level gets `data` when given, else
    /// the image encoded by the cache's coders (an animation in its own format, an image
    /// with alpha as PNG, anything else as JPEG; an image decoded frame by frame as its
    /// animation's bytes), written atomically on the I/O queue with
    /// `metadata`. `completion` runs on `callbackQueue` once the disk write is done, with
    /// the error if it failed.
    public func store(
        _ image: Image?,
        data: Data? = nil,
        forKey key: String,
        scope: ImageCacheType = .all,
        metadata: DiskCacheEntryMetadata? = nil,
        callbackQueue: DispatchQueue = .global(qos: .userInitiated),
        completion: (@Sendable (ImageError?) -> Void)? = nil
    ) {
        if let image, scope.includesMemory, configuration.shouldCacheImagesInMemory {
            storeInMemory(image, data: data, forKey: key, metadata: metadata)
        }
        guard scope.includesDisk, image != nil || data != nil else {
            if let completion { callbackQueue.async { completion(nil) } }
            return
        }
        ioQueue.async { [self] in
            let failure: ImageError?
            do throws(ImageError) {
                try storeOnDisk(image, data: data, forKey: key, metadata: metadata)
                failure = nil
            } catch {
                failure = error
            }
            if let completion { callbackQueue.async { completion(failure) } }
        }
    }

    /// Writes `data`, or `image` encoded, to disk. Blocks.
    private func storeOnDisk(
        _ image: Image?,
        data: Data?,
        forKey key: String,
        metadata: DiskCacheEntryMetadata?
    ) throws(ImageError) {
        let bytes: Data
        if let data {
            bytes = data
        } else if let image {
            // An image decoded frame by frame stores its animation's own bytes: encoding it
            // would keep only the poster.
            if let animationData = image.animation?.data {
                bytes = animationData
            } else {
                bytes = try coders.encode(image, as: storedFormat(of: image))
            }
        } else {
            return
        }
        try diskStorage.store(bytes, forKey: key, metadata: metadata)
    }

    /// The format an image without bytes is written in: its own, as SDWebImage's cache
    /// encodes in the image's format, when a coder writes it and it holds the image's
    /// alpha; else (`nil`) the format that suits the image.
    private func storedFormat(of image: Image) -> ImageFormat? {
        let withoutAlpha: Set<ImageFormat> = [.jpeg, .bmp]
        guard !image.isAnimated, image.format != .undefined, coders.canEncode(to: image.format),
            !(image.hasAlpha && withoutAlpha.contains(image.format))
        else { return nil }
        return image.format
    }
}
