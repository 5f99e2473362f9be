extension Image {
    /// The ``ThumbHash`` of the first frame (an animation's poster), in sRGB.
    ///
    /// An image larger than ``ThumbHash/maximumSide`` pixels a side is first reduced
    /// (with `Bitmap.resized(to:)`) to fit, keeping its proportions; an image that
    /// carries a colour profile is hashed in sRGB.
    ///
    /// - Precondition: the image has pixels.
    /// - Throws: ``ImageError/Code/imageTooLarge`` when the reduction cannot get the
    ///   memory it needs.
    public func thumbHash() throws(ImageError) -> ThumbHash {
        var bitmap = bitmap
        let longSide = max(bitmap.width, bitmap.height), limit = ThumbHash.maximumSide
        if longSide > limit {
            bitmap = try bitmap.resized(
                to: PixelSize(
                    width: max(1, (bitmap.width * limit + longSide / 2) / longSide),
                    height: max(1, (bitmap.height * limit + longSide / 2) / longSide)))
        }
        return ThumbHash(encoding: try Image(bitmap: bitmap, colorProfile: colorProfile).sRGBPixels())
    }

    /// The ``BlurHash`` of the first frame (an animation's poster), in sRGB, with
    /// `components` cosine terms across and down: 4 × 3 suits a landscape picture, 3 × 4
    /// a portrait one. Alpha is not part of a BlurHash.
    ///
    /// Every pixel is read once per component, as the reference reads them, so hash a
    /// reduced decode (a thumbnail, or `ImageDecodeOptions.thumbnailPixelSize`) of a
    /// large picture: the hash holds no more detail than its components.
    ///
    /// - Precondition: both counts are in ``BlurHash/componentRange``, and the image has
    ///   pixels.
    /// - Throws: ``ImageError/Code/imageTooLarge`` when the 8-bit copy of a 16-bit image
    ///   cannot get the memory it needs.
    public func blurHash(components: (x: Int, y: Int) = (4, 3)) throws(ImageError) -> BlurHash {
        BlurHash(encoding: try sRGBPixels(), components: components)
    }

    /// The first frame's pixels, 8-bit, converted from `colorProfile` to sRGB; throws
    /// ``ImageError/Code/imageTooLarge`` when the 8-bit copy cannot be had.
    private func sRGBPixels() throws(ImageError) -> Bitmap {
        let first = colorProfile == nil ? self : Image(bitmap: bitmap, colorProfile: colorProfile)
        return try first.convertedToSRGB().bitmap.convertedToRGBA8()
    }
}
