extension Image {
    /// This image (the result of a geometric step on `source`) with `source`'s gain map
    /// put through the same step: `step` gets the map's bitmap and how its pixels relate to
    /// `source`'s (``GainMapScale``), and returns the map as the step leaves it.
    ///
    /// A source without a gain map gives this image without one; so does a step that
    /// throws or leaves an empty map, so that a gain map that could not follow its
    /// primary is dropped, never written out of step.
    public func carryingGainMap(
        of source: Image, through step: (_ map: Bitmap, _ scale: GainMapScale) throws(ImageError) -> Bitmap
    ) -> Image {
        guard let gainMap = source.gainMap else { return self.gainMap == nil ? self : withGainMap(nil) }
        let scale = GainMapScale(map: gainMap.pixelSize, primary: source.pixelSize)
        guard let stepped = try? step(gainMap.bitmap, scale), stepped.width > 0, stepped.height > 0 else {
            return withGainMap(nil)
        }
        return withGainMap(GainMap(bitmap: stepped, metadata: gainMap.metadata))
    }

    /// This image (a resize of `source`) with `source`'s gain map resized in step: to
    /// the map's share of this image's size.
    public func carryingResizedGainMap(of source: Image) -> Image {
        let size = pixelSize
        return carryingGainMap(of: source) { map, scale throws(ImageError) in try map.resized(to: scale.size(size)) }
    }
}
