import WebImage

extension TransformSpec {
    /// This spec with each overlay whose name `watermarks` holds drawing that image instead
    /// of the stand-in it was read with (a watermark fetched for the request).
    func drawing(_ watermarks: [String: Image]) -> TransformSpec {
        var spec = self
        spec.transformers = transformers.map { transformer in
            guard var overlay = transformer as? OverlayImageTransformer, let image = watermarks[overlay.name] else { return transformer }
            overlay.overlay = image
            return overlay
        }
        return spec
    }
}
