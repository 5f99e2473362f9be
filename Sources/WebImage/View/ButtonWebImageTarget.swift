import Foundation

/// A button-like target: an image and a background image for each ``ButtonState`` — SDWebImage's
/// `UIButton+WebCache`. Each state's image and each state's background load under
/// their own operation key, so loading one never cancels another.
///
/// The main image of ``WebImageTarget`` is the normal state's image.
public protocol ButtonWebImageTarget: WebImageTarget {
    /// Shows `image` as the image of `state` (`nil` clears it).
    func display(_ image: Image?, for state: ButtonState)
    /// Shows `image` as the background image of `state` (`nil` clears it).
    func displayBackground(_ image: Image?, for state: ButtonState)
}

extension ButtonWebImageTarget {
    /// Shows `image` as the normal state's image.
    public func display(_ image: Image?) {
        display(image, for: .normal)
    }

    /// The operation key of the image of `state`.
    public func imageOperationKey(for state: ButtonState) -> String {
        "\(imageOperationKey).image.\(state.rawValue)"
    }

    /// The operation key of the background image of `state`.
    public func backgroundImageOperationKey(for state: ButtonState) -> String {
        "\(imageOperationKey).background.\(state.rawValue)"
    }

    /// The URL of the image of `state` last asked for.
    public func imageURL(for state: ButtonState) -> URL? {
        imageOperations.url(forKey: imageOperationKey(for: state))
    }

    /// The URL of the background image of `state` last asked for.
    public func backgroundImageURL(for state: ButtonState) -> URL? {
        imageOperations.url(forKey: backgroundImageOperationKey(for: state))
    }

    /// Loads the image at `url` as the image of `state`.
    @discardableResult
    public func setImage(
        with url: URL?,
        for state: ButtonState,
        placeholder: Image? = nil,
        options: ImageOptions = [],
        progress: ProgressHandler? = nil,
        completed: CompletionHandler? = nil
    ) -> ImageLoadOperation? {
        loadImage(
            ImageRequest(url: url, options: options),
            placeholder: placeholder,
            operationKey: imageOperationKey(for: state),
            display: { [weak self] image in self?.display(image, for: state) },
            progress: progress,
            completed: completed
        )
    }

    /// Loads the image at `url` as the background image of `state`.
    @discardableResult
    public func setBackgroundImage(
        with url: URL?,
        for state: ButtonState,
        placeholder: Image? = nil,
        options: ImageOptions = [],
        progress: ProgressHandler? = nil,
        completed: CompletionHandler? = nil
    ) -> ImageLoadOperation? {
        loadImage(
            ImageRequest(url: url, options: options),
            placeholder: placeholder,
            operationKey: backgroundImageOperationKey(for: state),
            display: { [weak self] image in self?.displayBackground(image, for: state) },
            progress: progress,
            completed: completed
        )
    }

    /// Cancels the load of the image of `state`.
    public func cancelImageLoad(for state: ButtonState) {
        imageOperations.cancelOperation(forKey: imageOperationKey(for: state))
    }

    /// Cancels the load of the background image of `state`.
    public func cancelBackgroundImageLoad(for state: ButtonState) {
        imageOperations.cancelOperation(forKey: backgroundImageOperationKey(for: state))
    }
}
