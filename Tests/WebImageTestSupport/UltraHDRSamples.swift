import Foundation
import WebImageCore

/// The Ultra HDR corpus (`../shared/corpora/ultrahdr-samples`): each file with the gain
/// map its README describes, as the decoder should find it.
package enum UltraHDRSamples {
    /// One sample: its path in the corpus, and its gain map's size and channels (`nil`
    /// for files with no Ultra HDR gain map to find).
    package struct Sample: Sendable, CustomStringConvertible {
        /// The path under `ultrahdr-samples/`.
        package let path: String
        /// The gain map's stored size, or `nil` when none should be found.
        package let gainMapSize: PixelSize?
        /// The gain map's channels (1 or 3).
        package let channels: Int

        /// The path in the corpus.
        package var corpusPath: String { "ultrahdr-samples/" + path }
        /// The path, for test names.
        package var description: String { path }
    }

    /// Every sample of the README's table.
    package static let all: [Sample] = [
        Sample(path: "sharp/gain-map.jpg", gainMapSize: PixelSize(width: 960, height: 540), channels: 1),
        Sample(path: "pillow/ultrahdr.jpg", gainMapSize: PixelSize(width: 572, height: 1018), channels: 1),
        Sample(path: "pillow/ultrahdr-truncated.jpg", gainMapSize: nil, channels: 0),
        Sample(path: "libavif/paris_exif_xmp_gainmap_littleendian.jpg", gainMapSize: PixelSize(width: 512, height: 384), channels: 1),
        Sample(path: "libavif/paris_exif_xmp_gainmap_bigendian.jpg", gainMapSize: PixelSize(width: 512, height: 384), channels: 1),
        Sample(path: "libavif/paris_exif_xmp_icc_gainmap_bigendian.jpg", gainMapSize: PixelSize(width: 512, height: 384), channels: 1),
        Sample(path: "libavif/seine_sdr_gainmap_srgb.jpg", gainMapSize: PixelSize(width: 400, height: 300), channels: 3),
        Sample(path: "libavif/seine_sdr_different_gainmap_srgb.jpg", gainMapSize: PixelSize(width: 400, height: 300), channels: 3),
        Sample(path: "libavif/apple_gainmap_old.jpg", gainMapSize: nil, channels: 0),
        Sample(path: "libavif/apple_gainmap_new.jpg", gainMapSize: nil, channels: 0),
        Sample(path: "vearutop-ultrahdr/old_acr.orig.jpg", gainMapSize: PixelSize(width: 4534, height: 3023), channels: 3),
        Sample(path: "vearutop-ultrahdr/uhdr.jpg", gainMapSize: PixelSize(width: 5915, height: 3943), channels: 3),
        Sample(path: "vearutop-ultrahdr/uhdr.vips_thumb.jpg", gainMapSize: PixelSize(width: 2400, height: 1600), channels: 3),
        Sample(path: "vearutop-ultrahdr/small_uhdr.jpg", gainMapSize: PixelSize(width: 600, height: 400), channels: 3),
        Sample(path: "gainmap-js/spruit_sunrise_4k.jpg", gainMapSize: PixelSize(width: 4096, height: 2048), channels: 3),
        Sample(path: "hdr-canvas/red-ultrahdr.jpeg", gainMapSize: PixelSize(width: 200, height: 100), channels: 3),
    ]

    /// The samples that carry a gain map.
    package static var withGainMaps: [Sample] { all.filter { $0.gainMapSize != nil } }

    /// Whether a map of `map` pixels follows a primary of `primary` pixels as the source's
    /// map of `sourceMap` followed its primary of `sourcePrimary`: each side within 2
    /// pixels of the source's ratio.
    package static func follows(map: PixelSize, primary: PixelSize, sourceMap: PixelSize, sourcePrimary: PixelSize) -> Bool {
        let width = Double(primary.width) * Double(sourceMap.width) / Double(sourcePrimary.width)
        let height = Double(primary.height) * Double(sourceMap.height) / Double(sourcePrimary.height)
        return abs(width - Double(map.width)) <= 2 && abs(height - Double(map.height)) <= 2
    }
}
