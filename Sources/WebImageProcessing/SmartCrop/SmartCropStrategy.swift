import WebImageCore

/// How a smart crop measures what is interesting in a picture (libvips' and imgproxy's
/// `attention` and `entropy`).
public enum SmartCropStrategy: String, Sendable, Hashable, CaseIterable {
    /// Edges of the luminance, skin tones and reds, scored on a 32 × 32 reduction of the
    /// picture and blurred to the window's scale; the window is centred on the highest
    /// score (libvips' `attention`).
    case attention
    /// The strip with the least information (histogram entropy of the luminance) is cut
    /// from one side or the other until the window's size is left (libvips' `entropy`).
    case entropy

    /// The top-left corner of the window of `size` this strategy keeps in `bitmap`; the
    /// window lies inside the bitmap along every axis where it fits, and is centred
    /// along an axis where it does not. Throws `ImageError.Code.imageTooLarge` when the
    /// reduced copy the analysis reads cannot get the memory it needs.
    public func origin(of size: PixelSize, in bitmap: Bitmap) throws(ImageError) -> (x: Int, y: Int) {
        let spare = (bitmap.width - size.width, bitmap.height - size.height)
        guard spare.0 > 0 || spare.1 > 0 else { return ImageGravity.center.origin(of: size, in: bitmap.size) }
        let window = PixelSize(width: min(size.width, bitmap.width), height: min(size.height, bitmap.height))
        let found =
            switch self {
            case .attention: try AttentionCropFinder(bitmap: bitmap).origin(of: window)
            case .entropy: try EntropyCropFinder(bitmap: bitmap).origin(of: window)
            }
        func axis(_ position: Int, _ spare: Int) -> Int { spare < 0 ? spare / 2 : min(max(0, position), spare) }
        return (axis(found.x, spare.0), axis(found.y, spare.1))
    }
}
