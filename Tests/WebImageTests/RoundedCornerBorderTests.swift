import Foundation
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// SDWebImage's rounded-corner border geometry (`sd_roundedCornerImageWithRadius:corners:
/// borderWidth:borderColor:`): the picture is clipped to the outline inset by the border's
/// width, and a line of that width is stroked on the outline inset by `floor(width) + 0.5`.
@Suite struct RoundedCornerBorderTests {
    private let red = RGBA8(red: 255, green: 0, blue: 0)

    /// Column `x` of row 10 of a 20×20 white square with a red border of `width`.
    private func column(_ x: Int, borderWidth: Double, radius: Double = 0) throws -> RGBA8 {
        let square = Image(bitmap: Bitmap.solid(20, 20, .white))
        let transformer = RoundedCornersImageTransformer(radius: radius, border: ImageBorder(width: borderWidth, colour: red))
        return try #require(transformer.transform(square)).bitmap.rgba8(x: x, y: 10)
    }

    @Test func aOnePixelBorderLandsOnColumnOneWithColumnZeroClear() throws {
        #expect(try column(0, borderWidth: 1).alpha == 0)
        #expect(try column(1, borderWidth: 1) == red)
        #expect(try column(2, borderWidth: 1) == .white)
        // The same on the far side.
        #expect(try column(19, borderWidth: 1).alpha == 0)
        #expect(try column(18, borderWidth: 1) == red)
    }

    @Test func aTwoPixelBorderCoversColumnTwoAndHalfOfItsNeighbours() throws {
        #expect(try column(0, borderWidth: 2).alpha == 0)
        let half = try column(1, borderWidth: 2)
        #expect((120...135).contains(half.alpha) && half.green == 0, "\(half)")
        #expect(try column(2, borderWidth: 2) == red)
        let overWhite = try column(3, borderWidth: 2)
        #expect(overWhite.alpha == 255 && overWhite.red == 255 && (120...135).contains(overWhite.green), "\(overWhite)")
        #expect(try column(4, borderWidth: 2) == .white)
    }

    @Test func aThreePixelBorderLeavesTwoColumnsClear() throws {
        for x in [0, 1] {
            #expect(try column(x, borderWidth: 3).alpha == 0, "column \(x)")
        }
        for x in [2, 3, 4] {
            #expect(try column(x, borderWidth: 3) == red, "column \(x)")
        }
        #expect(try column(5, borderWidth: 3) == .white)
    }

    @Test func aRoundedCornerWithABorderIsClearOutsideTheInsetOutline() throws {
        let square = Image(bitmap: Bitmap.solid(40, 40, .white))
        let transformer = RoundedCornersImageTransformer(radius: 10, border: ImageBorder(width: 1, colour: red))
        let bitmap = try #require(transformer.transform(square)).bitmap
        #expect(bitmap.rgba8(x: 1, y: 1).alpha == 0, "outside the rounded corner")
        #expect(bitmap.rgba8(x: 20, y: 0).alpha == 0)
        #expect(bitmap.rgba8(x: 20, y: 1) == red)
        #expect(bitmap.rgba8(x: 20, y: 20) == .white)
    }
}
