import WebImageCore

extension TransformSpec {
    /// Whether the spec leaves the source's pixels as they are: no operation, and no
    /// `max=` or `maxbytes=` in its `format=` (which shrink or requantise). A JPEG written
    /// as JPEG XL under such a spec can be recompressed instead of decoded and encoded
    /// (`ImageCodersManager.recompressedJPEG(_:colorProfile:limits:)`).
    public var keepsPixels: Bool {
        guard transformers.isEmpty else { return false }
        guard let options = encodeOptions else { return true }
        return options.maxPixelSize == nil && options.maxFileSize == nil
    }
}
