import WebImageCore

extension TransformSpec {
    /// The chain as filters over a stream of opaque RGB rows, for a conversion that never
    /// holds the whole picture; `nil` when an operation needs more than a window of rows
    /// (a resize, crop, rotation, vertical flip, rounded corners, circle or overlay) or
    /// `format=` asks for something the streamed encode cannot do (`max=`, `maxbytes=`,
    /// `lossless`).
    ///
    /// Each filter gives its transformer's result for an opaque picture: exactly for
    /// the pixel operations and the horizontal flip, exactly for blurs below
    /// `Bitmap.integerBlurMaximumSigma` and sharpening with a sigma below 1, and within a
    /// thousandth of a level above (see ``GaussianRowFilter``).
    package var rowFilters: ((PixelSize) throws(ImageError) -> [any RGBRowFilter])? {
        if let options = encodeOptions, options.maxPixelSize != nil || options.maxFileSize != nil || options.lossless {
            return nil
        }
        // Each maker answers a `Result` (the blur's window of rows may not fit in memory)
        // rather than throwing itself: Swift 6.3's SIL generation crashes on an array of
        // `throws(ImageError)` closures returning an existential.
        var makers: [(PixelSize) -> Result<any RGBRowFilter, ImageError>] = []
        for transformer in transformers {
            switch transformer {
            case let blur as GaussianBlurImageTransformer:
                guard blur.sigma > 0, blur.sigma.isFinite else { continue }
                makers.append { Self.gaussianFilter($0, sigma: blur.sigma) }
            case let sharpen as SharpeningImageTransformer:
                guard sharpen.sigma > 0, sharpen.sigma.isFinite, sharpen.amount > 0, sharpen.amount.isFinite else { continue }
                makers.append { Self.gaussianFilter($0, sigma: sharpen.sigma, amount: Float(sharpen.amount)) }
            case let controls as ColorControlsImageTransformer:
                guard !controls.isNeutral else { continue }
                makers.append { .success(RowMappingFilter.pixels(width: $0.width) { row, count in controls.adjust(row, count: count) }) }
            case let tint as TintImageTransformer:
                guard tint.colour.alpha > 0 else { continue }
                makers.append { .success(RowMappingFilter.pixels(width: $0.width) { row, count in tint.tint(row, count: count) }) }
            case is GrayscaleImageTransformer:
                makers.append { .success(RowMappingFilter.pixels(width: $0.width) { row, count in GrayscaleImageTransformer.removeColour(row, count: count) }) }
            case let flip as FlippingImageTransformer where !flip.vertical:
                guard flip.horizontal else { continue }
                makers.append { .success(RowMappingFilter.mirroring(width: $0.width)) }
            default:
                return nil
            }
        }
        return { size throws(ImageError) in
            var filters: [any RGBRowFilter] = []
            for maker in makers { filters.append(try maker(size).get()) }
            return filters
        }
    }

    /// A ``GaussianRowFilter`` for a `size` picture, or the error its window of rows met.
    private static func gaussianFilter(_ size: PixelSize, sigma: Double, amount: Float? = nil) -> Result<any RGBRowFilter, ImageError> {
        do {
            return .success(try GaussianRowFilter(size: size, sigma: sigma, amount: amount))
        } catch {
            return .failure(error)
        }
    }
}
