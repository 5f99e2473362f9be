import WebImageCore

extension TransformSpec {
    /// The spec for a screen of `factor` device pixels per point: every size it names —
    /// resize boxes, crop rectangles, margins, extended canvases, corner radii, border widths and `format=…,max=` —
    /// multiplied by `factor` and rounded, each side kept within
    /// ``TransformSpec/maximumDimension``.
    ///
    /// The image server's `dpr=N` operation applies this (imgproxy's `dpr`).
    public func multiplyingSizes(by factor: Double) -> TransformSpec {
        guard factor.isFinite, factor > 0, factor != 1 else { return self }
        func side(_ value: Int) -> Int {
            min(TransformSpec.maximumDimension, max(1, Int((Double(value) * factor).rounded())))
        }
        func margin(_ value: Int) -> Int {
            min(TransformSpec.maximumDimension, Int((Double(value) * factor).rounded()))
        }
        func length(_ value: Double) -> Double {
            min(Double(TransformSpec.maximumDimension), value * factor)
        }
        func border(_ value: ImageBorder?) -> ImageBorder? {
            value.map { ImageBorder(width: length($0.width), colour: $0.colour) }
        }
        var scaled = self
        scaled.transformers = transformers.map { transformer -> any ImageTransformer in
            switch transformer {
            case var resize as ResizingImageTransformer:
                resize.width = resize.width.map(side)
                resize.height = resize.height.map(side)
                return resize
            case var crop as CroppingImageTransformer:
                crop.size = PixelSize(width: side(crop.size.width), height: side(crop.size.height))
                if case let .origin(x, y) = crop.placement {
                    crop.placement = .origin(x: Int((Double(x) * factor).rounded()), y: Int((Double(y) * factor).rounded()))
                }
                return crop
            case var round as RoundedCornersImageTransformer:
                round.radius = length(round.radius)
                round.border = border(round.border)
                return round
            case var pad as PaddingImageTransformer:
                (pad.top, pad.right, pad.bottom, pad.left) = (margin(pad.top), margin(pad.right), margin(pad.bottom), margin(pad.left))
                return pad
            case var extend as ExtendingImageTransformer:
                extend.size = PixelSize(width: side(extend.size.width), height: side(extend.size.height))
                return extend
            case var circle as CircleImageTransformer:
                circle.border = border(circle.border)
                return circle
            default:
                return transformer
            }
        }
        if let box = encodeOptions?.maxPixelSize {
            scaled.encodeOptions?.maxPixelSize = PixelSize(width: side(box.width), height: side(box.height))
        }
        return scaled
    }

    /// The largest number of pixels one rectangle the spec names covers (a resize box, a
    /// crop), or `nil` when it names none; for capping a device pixel ratio.
    public var largestNamedPixelCount: Int? {
        transformers.compactMap { transformer -> Int? in
            switch transformer {
            case let resize as ResizingImageTransformer:
                guard resize.width != nil || resize.height != nil else { return nil }
                // One side alone: the other is unknown before the source, at most as large.
                let width = resize.width ?? resize.height ?? 1, height = resize.height ?? resize.width ?? 1
                return width * height
            case let crop as CroppingImageTransformer:
                return crop.size.width * crop.size.height
            case let extend as ExtendingImageTransformer:
                return extend.size.width * extend.size.height
            default:
                return nil
            }
        }.max()
    }
}
