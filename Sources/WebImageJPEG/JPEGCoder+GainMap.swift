import Foundation
import WebImageCore

extension JPEGCoder {
    /// The HDR gain map behind the primary JPEG in `jpeg` (whose segments are `primary`,
    /// decoded as `image` under `options`), decoded at the primary's scale and turned by
    /// its orientation; `nil` when there is none, or when it is damaged, truncated or past
    /// the options' limits.
    static func gainMap(
        in jpeg: UnsafeRawBufferPointer, primary: JPEGMetadata, decodedAs image: Image, options: ImageDecodeOptions
    ) -> GainMap? {
        guard let start = JPEGGainMapReader.gainMapOffset(in: jpeg, primary: primary.gainMapSegments),
            let stored = primary.frameSize, stored.width > 0, stored.height > 0
        else { return nil }
        let mapBytes = UnsafeRawBufferPointer(rebasing: jpeg[start...])
        var mapSegments = JPEGMetadata(reading: mapBytes)
        guard let metadata = JPEGGainMapReader.metadata(primary: primary.gainMapSegments, gainMap: mapSegments.gainMapSegments),
            let mapStored = mapSegments.frameSize, (try? check(mapSegments)) != nil
        else { return nil }
        // The map is stored as the primary is: its size follows the primary's decoded scale
        // in stored axes, and the primary's orientation turns it.
        mapSegments.orientation = .up
        let swaps = primary.orientation.swapsWidthAndHeight
        let decoded = swaps ? image.pixelSize.transposed : image.pixelSize
        var mapOptions = ImageDecodeOptions()
        mapOptions.maxPixelCount = options.maxPixelCount
        mapOptions.maxTotalBytes = options.maxTotalBytes
        if decoded != stored {
            mapOptions.thumbnailPixelSize = GainMapScale(map: mapStored, primary: stored).size(decoded)
            mapOptions.preserveAspectRatio = false
        }
        do throws(ImageError) {
            var bitmap = try decodeImage(
                JPEGDecompressor(mapBytes, maxMemory: mapOptions.maxTotalBytes), metadata: mapSegments, options: mapOptions,
                acceptingTruncation: false
            ).bitmap
            if primary.orientation != .up { bitmap = try bitmap.oriented(primary.orientation) }
            return GainMap(bitmap: bitmap, metadata: metadata)
        } catch {
            return nil
        }
    }
}

extension JPEGCoder {
    /// The size (upright, as the primary is shown) and metadata of the HDR gain map behind
    /// the JPEG in `data`, read from the segments alone, with no pixel decoded: what an
    /// info answer reports and what a decode of the map is planned at. `nil` when there is
    /// no gain map, or when it is damaged.
    public static func gainMap(describedIn data: Data) -> (size: PixelSize, metadata: GainMapMetadata)? {
        data.withUnsafeBytes { (jpeg: UnsafeRawBufferPointer) -> (size: PixelSize, metadata: GainMapMetadata)? in
            guard jpeg.count > 3, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
            let primary = JPEGMetadata(reading: jpeg)
            guard let start = JPEGGainMapReader.gainMapOffset(in: jpeg, primary: primary.gainMapSegments) else { return nil }
            let map = JPEGMetadata(reading: UnsafeRawBufferPointer(rebasing: jpeg[start...]))
            guard let metadata = JPEGGainMapReader.metadata(primary: primary.gainMapSegments, gainMap: map.gainMapSegments),
                let size = map.frameSize, size.width > 0, size.height > 0
            else { return nil }
            return (primary.orientation.swapsWidthAndHeight ? size.transposed : size, metadata)
        }
    }
}
