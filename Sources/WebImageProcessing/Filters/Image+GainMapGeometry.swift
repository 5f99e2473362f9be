import WebImageCore

extension Image {
    /// The colour a gain map's new margins get: no gain, so that padding shows SDR white
    /// as SDR white.
    private static let gainMapMargin = RGBA8(red: 0, green: 0, blue: 0, alpha: 255)

    /// This image (`source` cut to the rectangle at (`x`, `y`) of `size`) with `source`'s
    /// gain map cut to the same region of its own pixels.
    package func carryingCroppedGainMap(of source: Image, x: Int, y: Int, size: PixelSize) -> Image {
        carryingGainMap(of: source) { map, scale throws(ImageError) in
            try map.croppedGainMap(to: scale.rectangle(x: x, y: y, size: size))
        }
    }

    /// This image (`source` drawn at (`x`, `y`) on a canvas of `canvas`) with `source`'s
    /// gain map drawn at the same place of a canvas of its own scale, its margins gaining
    /// nothing.
    package func carryingPlacedGainMap(of source: Image, canvas: PixelSize, x: Int, y: Int) -> Image {
        carryingGainMap(of: source) { map, scale throws(ImageError) in
            try Bitmap.filled(scale.size(canvas), format: map.pixelFormat, with: Self.gainMapMargin)
                .drawing(map, atX: scale.across(x), y: scale.down(y))
        }
    }

    /// This image (`source` mirrored or turned by quarters as `orientation` says) with
    /// `source`'s gain map turned the same way.
    package func carryingOrientedGainMap(of source: Image, _ orientation: ImageOrientation) -> Image {
        carryingGainMap(of: source) { map, _ throws(ImageError) in try map.oriented(orientation) }
    }

    /// This image (`source` turned by `degrees`) with `source`'s gain map turned by the
    /// same angle, its new corners gaining nothing.
    package func carryingRotatedGainMap(of source: Image, degrees: Double, fitsCanvas: Bool) -> Image {
        carryingGainMap(of: source) { map, _ throws(ImageError) in
            try map.rotated(degrees: degrees, fitsCanvas: fitsCanvas, background: Self.gainMapMargin)
        }
    }

    /// This image (`source` resized to `scaled`, then cut to `canvas` at `window` when it
    /// covers it, or centred on a `canvas` it does not cover) with `source`'s gain map put
    /// through the same resize, cut or placement.
    package func carryingResizedGainMap(of source: Image, scaled: PixelSize, canvas: PixelSize, window: (x: Int, y: Int)?) -> Image {
        carryingGainMap(of: source) { map, scale throws(ImageError) in
            let resized = try map.resized(to: scale.size(scaled))
            guard scaled != canvas else { return resized }
            let resizedScale = GainMapScale(map: resized.size, primary: scaled)
            if scaled.width >= canvas.width, scaled.height >= canvas.height {
                let origin = window ?? ImageGravity.center.origin(of: canvas, in: scaled)
                return try resized.croppedGainMap(to: resizedScale.rectangle(x: origin.x, y: origin.y, size: canvas))
            }
            let origin = ImageGravity.center.origin(of: scaled, in: canvas)
            return try Bitmap.filled(resizedScale.size(canvas), format: resized.pixelFormat, with: Self.gainMapMargin)
                .drawing(resized, atX: resizedScale.across(origin.x), y: resizedScale.down(origin.y))
        }
    }
}

extension Bitmap {
    /// This gain map cut to `rectangle`, clipped to the map (an empty one throws, and the
    /// map is dropped).
    fileprivate func croppedGainMap(to rectangle: (x: Int, y: Int, size: PixelSize)) throws(ImageError) -> Bitmap {
        let left = min(max(0, rectangle.x), width - 1), top = min(max(0, rectangle.y), height - 1)
        let right = min(width, max(left + 1, rectangle.x + rectangle.size.width))
        let bottom = min(height, max(top + 1, rectangle.y + rectangle.size.height))
        guard left >= 0, top >= 0 else { throw ImageError(.badImageData, "the gain map is empty") }
        return try cropped(x: left, y: top, size: PixelSize(width: right - left, height: bottom - top))
    }
}
