import WebImageCore

/// Convolves every frame with a kernel of odd width and height, as thumbor's
/// `convolution(matrix, columns, normalize)` filter does (`convolution=K;K;…,COLUMNS` in
/// a transform spec, with `unnormalized` to keep the weights as given).
///
/// Each channel's 8-bit straight values are weighted by the kernel centred on the pixel
/// (the picture's edge pixels repeated beyond it); the sum is cut to a whole number toward
/// zero and held to 0…255. Alpha is convolved too, unless the frame is opaque.
public struct ConvolvingImageTransformer: ImageTransformer {
    /// The kernel's weights, row by row.
    public var kernel: [Double]
    /// The kernel's width; its height is the weights' count over it.
    public var columns: Int
    /// Whether the weights are divided by their sum (when it is not 0).
    public var normalizes: Bool

    /// The most weights a kernel may have (9 × 9): the cost of a pixel grows with them.
    public static let maximumWeights = 81

    /// Creates a transformer convolving with `kernel`, `columns` weights a row.
    public init(kernel: [Double], columns: Int, normalizes: Bool = true) {
        self.kernel = kernel
        self.columns = columns
        self.normalizes = normalizes
    }

    /// `convolution-K;K;…-cCOLUMNS`, then `-unnormalized` when the weights are kept.
    public var key: String {
        "convolution-\(kernel.map(RoundedCornersImageTransformer.format).joined(separator: ";"))-c\(columns)"
            + (normalizes ? "" : "-unnormalized")
    }

    /// Whether the kernel has an odd width and height and at most ``maximumWeights``.
    public var isValid: Bool {
        columns > 0 && !kernel.isEmpty && kernel.count <= Self.maximumWeights && kernel.count.isMultiple(of: columns)
            && !columns.isMultiple(of: 2) && !(kernel.count / columns).isMultiple(of: 2) && kernel.allSatisfy(\.isFinite)
    }

    /// The convolved image; `nil` for a kernel that is not ``isValid``.
    public func transform(_ image: Image) -> Image? {
        guard isValid else { return nil }
        let sum = kernel.reduce(0, +)
        let weights = normalizes && sum != 0 ? kernel.map { $0 / sum } : kernel
        return image.replacingFrames { Self.convolved($0, weights: weights, columns: columns) }
    }

    /// `bitmap` convolved with `weights`, `columns` a row, whatever their count: thumbor's
    /// sums over 8-bit straight values, edge pixels repeated, cut toward zero and held to
    /// 0…255; alpha convolved unless the bitmap is opaque.
    static func convolved(_ bitmap: Bitmap, weights: [Double], columns: Int) -> Bitmap {
        let rows = weights.count / columns
        let (middleX, middleY) = (columns / 2, rows / 2)
        let convolvesAlpha = bitmap.containsTransparency
        let (width, height, format) = (bitmap.width, bitmap.height, bitmap.pixelFormat)
        return bitmap.pixels.withUnsafeBytes { source in
            bitmap.mappingRows(premultiplied: false) { y, row in
                // The kernel's rows of the source, as 8-bit levels.
                let window = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: rows * width)
                defer { window.deallocate() }
                for line in 0..<rows {
                    let sourceY = min(max(y + line - middleY, 0), height - 1)
                    Bitmap.unpackRow(
                        sourceY, of: source.baseAddress!, width: width, format: format, into: window + line * width, premultiplying: false)
                    for x in 0..<width { window[line * width + x] = (window[line * width + x] * 255).rounded(.toNearestOrAwayFromZero) }
                }
                for x in 0..<width {
                    var total = SIMD4<Double>()
                    for line in 0..<rows {
                        for column in 0..<columns {
                            let sourceX = min(max(x + column - middleX, 0), width - 1)
                            total += SIMD4<Double>(window[line * width + sourceX]) * weights[line * columns + column]
                        }
                    }
                    var level = SIMD4<Float>(total.rounded(.towardZero)).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255)) / 255
                    if !convolvesAlpha { level.w = row[x].w }
                    row[x] = level
                }
            }
        }
    }
}
