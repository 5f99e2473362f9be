/// Anything that shows an image loaded from a URL: a terminal cell, a widget, a server-side
/// renderer — SDWebImage's `UIImageView+WebCache` made a protocol.
///
/// A conforming class says where the image goes (``display(_:)``) and keeps a
/// ``WebImageOperationStore``; the protocol's extension then gives it SDWebImage's whole API:
/// ``setImage(with:placeholder:options:progress:completed:)`` and its shorter forms,
/// ``setImageWithPreviousCachedImage(with:placeholder:options:progress:completed:)``,
/// ``imageURL`` and ``cancelCurrentImageLoad()``. Starting a load cancels the load running
/// under the same operation key, so a target reused for another URL never shows the old
/// one's image.
///
/// ## Implementation requirements
///
/// The protocol's extension does the loading; a conforming type supplies only where the
/// image goes, and must keep these rules:
///
/// - **A class, shared safely.** A target is a reference type and `Sendable`: loads call
///   ``display(_:)`` from the callback queue while other code reads the target, so guard
///   what `display` writes with a lock (or confine the target to one queue and make that
///   queue the loads' callback queue).
/// - **One operation store for life.** ``imageOperations`` returns the same
///   ``WebImageOperationStore`` every time; it is what lets a new load cancel the old one
///   under the same operation key.
/// - **`display` only shows.** ``display(_:)`` sets what the target shows (`nil` clears it)
///   and returns quickly: no loading, no blocking, no call back into `setImage`.
/// - **Distinct keys for distinct images.** A target that shows several images (a button's
///   states, a highlighted image) loads each under its own operation key, so that loading
///   one never cancels another.
///
/// Call these methods on the queue that owns the target — the queue its loads call back on
/// (the request's `callbackQueue`, else the manager's). The placeholder, and an image already
/// in memory, are shown at once on the calling thread, before the call returns; everything
/// else arrives on the callback queue.
///
/// ```swift
/// final class Cell: WebImageTarget {
///     let imageOperations = WebImageOperationStore()
///     private let shown = NIOLockedValueBox<Image?>(nil)
///     func display(_ image: Image?) { shown.withLockedValue { $0 = image } }
/// }
/// cell.setImage(with: url, placeholder: grey)
/// ```
public protocol WebImageTarget: AnyObject, Sendable {
    /// The loads this target runs, by operation key.
    var imageOperations: WebImageOperationStore { get }
    /// The manager that loads for this target (``ImageManager/shared`` unless overridden).
    var imageManager: ImageManager { get }
    /// The indicator shown while an image loads (none unless overridden).
    var imageIndicator: (any ImageIndicator)? { get }
    /// The operation key of the main image (the type's name unless overridden).
    var imageOperationKey: String { get }
    /// Shows `image` (`nil` clears it): where the image goes.
    func display(_ image: Image?)
}

extension WebImageTarget {
    /// The shared manager.
    public var imageManager: ImageManager { .shared }

    /// No indicator.
    public var imageIndicator: (any ImageIndicator)? { nil }

    /// The name of the target's type, as SDWebImage uses its class name.
    public var imageOperationKey: String { String(describing: type(of: self)) }
}
