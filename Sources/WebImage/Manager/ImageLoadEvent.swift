/// What an image load reports as it goes, for ``ImageManager/events(for:)``.
public enum ImageLoadEvent: Sendable {
    /// Bytes received so far and the expected total (-1 when unknown).
    case progress(received: Int64, expected: Int64)
    /// A partial image of a progressive load.
    case partialImage(Image)
    /// An answer with an image (or a finished load without one).
    case response(ImageResponse)
}
