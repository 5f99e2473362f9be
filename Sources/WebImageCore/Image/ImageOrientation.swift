/// How a stored image must be turned to show upright: the EXIF `Orientation` tag (1–8).
///
/// Decoders apply the orientation to the pixels, so an ``Image`` is always upright and
/// its ``Image/orientation`` records what the source said.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable, Codable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: turned 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the main diagonal (transposed).
    case leftMirrored = 5
    /// 6: must be turned 90° clockwise to show upright.
    case right = 6
    /// 7: mirrored along the anti-diagonal (transversed).
    case rightMirrored = 7
    /// 8: must be turned 90° counter-clockwise to show upright.
    case left = 8

    /// The orientation for an EXIF tag value; values outside 1–8 (such as 0) mean ``up``.
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: exifValue) ?? .up
    }

    /// Whether showing the image upright swaps its width and height.
    public var swapsWidthAndHeight: Bool {
        switch self {
        case .leftMirrored, .right, .rightMirrored, .left: true
        default: false
        }
    }
}
