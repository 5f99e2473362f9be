import Foundation

/// A target with a second image shown while it is highlighted — SDWebImage's
/// `UIImageView+HighlightedWebCache`. The highlighted image loads under its own operation
/// key, so it never cancels the main image's load, nor the other way round.
public protocol HighlightedWebImageTarget: WebImageTarget {
    /// Shows `image` as the highlighted image (`nil` clears it).
    func displayHighlighted(_ image: Image?)
}

extension HighlightedWebImageTarget {
    /// The operation key of the highlighted image.
    public var highlightedImageOperationKey: String { imageOperationKey + ".highlighted" }

    /// The URL of the highlighted image last asked for.
    public var highlightedImageURL: URL? {
        imageOperations.url(forKey: highlightedImageOperationKey)
    }

    /// Loads the image at `url` as the highlighted image (no placeholder, as in SDWebImage).
    @discardableResult
    public func setHighlightedImage(
        with url: URL?,
        options: ImageOptions = [],
        progress: ProgressHandler? = nil,
        completed: CompletionHandler? = nil
    ) -> ImageLoadOperation? {
        loadImage(
            ImageRequest(url: url, options: options),
            placeholder: nil,
            operationKey: highlightedImageOperationKey,
            display: { [weak self] image in self?.displayHighlighted(image) },
            progress: progress,
            completed: completed
        )
    }

    /// Cancels the load of the highlighted image.
    public func cancelHighlightedImageLoad() {
        imageOperations.cancelOperation(forKey: highlightedImageOperationKey)
    }
}
