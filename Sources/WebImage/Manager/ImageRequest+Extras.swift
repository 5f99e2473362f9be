import Foundation

extension ImageRequest {
    /// The settings of an ``ImageRequest`` that most loads leave alone, in one object that
    /// copies of the request share until one of them changes it (copy on write).
    ///
    /// Unchecked `Sendable`: a request changes its extras only while no other request
    /// refers to them (it copies them first), so no two threads ever see one change.
    final class Extras: @unchecked Sendable {
        var transformer: (any ImageTransformer)?
        var cacheKeyFilter: CacheKeyFilter?
        var callbackQueue: DispatchQueue?
        var downloadDeadline: TimeInterval?
        var retryPolicy: DownloadRetryPolicy?
        var priorityControl: DownloadPriorityControl?
        var scaleFactor: Double?
        var cacheSerializer: ImageManager.CacheSerializer?
        var coderOptions: ImageCoderOptions = ImageCoderOptions()
        var cache: (any ImageCaching)?
        var originalCache: (any ImageCaching)?
        var requestModifier: DownloadRequestModifier?
        var responseModifier: DownloadResponseModifier?
        var decryptor: DownloadDecryptor?

        /// Extras holding the settings an initializer was given, `nil` when it was given none.
        static func holding(
            transformer: (any ImageTransformer)?,
            cacheKeyFilter: CacheKeyFilter?,
            callbackQueue: DispatchQueue?
        ) -> Extras? {
            guard transformer != nil || cacheKeyFilter != nil || callbackQueue != nil else { return nil }
            let extras = Extras(copying: nil)
            extras.transformer = transformer
            extras.cacheKeyFilter = cacheKeyFilter
            extras.callbackQueue = callbackQueue
            return extras
        }

        /// The settings of `other`, or the defaults when there is none.
        init(copying other: Extras?) {
            guard let other else { return }
            transformer = other.transformer
            cacheKeyFilter = other.cacheKeyFilter
            callbackQueue = other.callbackQueue
            downloadDeadline = other.downloadDeadline
            retryPolicy = other.retryPolicy
            priorityControl = other.priorityControl
            scaleFactor = other.scaleFactor
            cacheSerializer = other.cacheSerializer
            coderOptions = other.coderOptions
            cache = other.cache
            originalCache = other.originalCache
            requestModifier = other.requestModifier
            responseModifier = other.responseModifier
            decryptor = other.decryptor
        }
    }
}
