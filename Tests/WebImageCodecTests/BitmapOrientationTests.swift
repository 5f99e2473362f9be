import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTestSupport

@Suite struct BitmapOrientationTests {
    /// A 3×2 bitmap whose red channel numbers its pixels row by row:
    /// ```
    /// 0 1 2
    /// 3 4 5
    /// ```
    let numbered: Bitmap = {
        var bitmap = Bitmap(width: 3, height: 2)
        for index in 0..<6 {
            bitmap.pixels[index * 4] = UInt8(index)
            bitmap.pixels[index * 4 + 3] = 255
        }
        return bitmap
    }()

    private func rows(_ bitmap: Bitmap) -> [[UInt8]] {
        (0..<bitmap.height).map { y in (0..<bitmap.width).map { x in bitmap.rgba8(x: x, y: y).red } }
    }

    /// Each case is the EXIF definition: how the stored rows must be turned to show upright.
    @Test(
        arguments: [
            (ImageOrientation.up, [[0, 1, 2], [3, 4, 5]]),
            (.upMirrored, [[2, 1, 0], [5, 4, 3]]),
            (.down, [[5, 4, 3], [2, 1, 0]]),
            (.downMirrored, [[3, 4, 5], [0, 1, 2]]),
            (.leftMirrored, [[0, 3], [1, 4], [2, 5]]),
            (.right, [[3, 0], [4, 1], [5, 2]]),
            (.rightMirrored, [[5, 2], [4, 1], [3, 0]]),
            (.left, [[2, 5], [1, 4], [0, 3]]),
        ] as [(ImageOrientation, [[UInt8]])])
    func turnsTheStoredPixelsUpright(orientation: ImageOrientation, expected: [[UInt8]]) throws {
        let upright = try numbered.oriented(orientation)
        #expect(rows(upright) == expected)
        #expect(upright.size == (orientation.swapsWidthAndHeight ? numbered.size.transposed : numbered.size))
    }

    @Test func unknownExifValuesMeanUp() {
        #expect(ImageOrientation(exifValue: 0) == .up)
        #expect(ImageOrientation(exifValue: 9) == .up)
        #expect(ImageOrientation(exifValue: 6) == .right)
    }
}
