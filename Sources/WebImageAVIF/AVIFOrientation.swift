#if AVIF
// Compiled only with the `AVIF` package trait, so that a build without it never imports
// CAVIF and needs no libavif headers.
import CAVIF
import WebImageCore

extension ImageOrientation {
    /// The EXIF orientation equal to an AVIF image's `irot` (turns anticlockwise, applied
    /// first) and `imir` (0: top and bottom exchanged, 1: left and right) properties.
    init(avif image: avifImage) {
        let rotates = image.transformFlags & UInt32(AVIF_TRANSFORM_IROT.rawValue) != 0
        let mirrors = image.transformFlags & UInt32(AVIF_TRANSFORM_IMIR.rawValue) != 0
        let angle = rotates ? Int(image.irot.angle & 3) : 0
        let exif: [Int] =
            switch (mirrors, image.imir.mode) {
            case (false, _): [1, 8, 3, 6]
            case (true, 0): [4, 5, 2, 7]
            default: [2, 7, 4, 5]
            }
        self.init(exifValue: exif[angle])
    }
}
#endif
