import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImagePNG
import WebImageTestSupport

/// Dispose and blend semantics of the APNG canvas.
@Suite
struct APNGCompositorTests {
    let red = RGBA8(red: 255, green: 0, blue: 0)

    func frame(_ color: RGBA8, _ width: Int, _ height: Int) -> Bitmap {
        PNGCoderTests.solid(color, width: width, height: height)
    }

    func control(_ width: Int, _ height: Int, x: Int = 0, y: Int = 0, disposal: UInt8 = 0, blending: UInt8 = 0) throws -> APNGFrameControl {
        let bytes = APNGTestFile.frameControlBytes(sequence: 0, width: width, height: height, x: x, y: y, disposal: disposal, blending: blending)
        return try bytes.withUnsafeBytes { raw in try APNGFrameControl(raw) }
    }

    @Test func disposalAndBlendingFollowTheSpecification() throws {
        var compositor = try APNGCompositor(size: PixelSize(width: 4, height: 2), pixelFormat: .rgba8)
        let first = compositor.draw(frame(red, 4, 2), as: try control(4, 2))
        #expect(first.rgba8(x: 3, y: 1) == red)

        let halfBlue = RGBA8(red: 0, green: 0, blue: 255, alpha: 128)
        let second = compositor.draw(frame(halfBlue, 2, 1), as: try control(2, 1, x: 1, disposal: 2, blending: 1))
        #expect(second.rgba8(x: 1, y: 0) == RGBA8(red: 127, green: 0, blue: 128, alpha: 255))
        #expect(second.rgba8(x: 0, y: 0) == red)

        let green = RGBA8(red: 0, green: 255, blue: 0)
        let third = compositor.draw(frame(green, 1, 1), as: try control(1, 1, x: 3, y: 1, disposal: 1))
        #expect(third.rgba8(x: 1, y: 0) == red)
        #expect(third.rgba8(x: 3, y: 1) == green)

        let clear = RGBA8(red: 0, green: 0, blue: 0, alpha: 0)
        let fourth = compositor.draw(frame(clear, 1, 1), as: try control(1, 1))
        #expect(fourth.rgba8(x: 0, y: 0) == clear)
        #expect(fourth.rgba8(x: 3, y: 1) == clear)

        let translucent = RGBA8(red: 10, green: 20, blue: 30, alpha: 100)
        let fifth = compositor.draw(frame(translucent, 1, 1), as: try control(1, 1, x: 3, y: 1, blending: 1))
        #expect(fifth.rgba8(x: 3, y: 1) == translucent)
        #expect(fifth.rgba8(x: 2, y: 1) == red)
    }

    @Test func sixteenBitFramesBlendAtFullPrecision() throws {
        var compositor = try APNGCompositor(size: PixelSize(width: 1, height: 1), pixelFormat: .rgba16)
        func wide(_ values: [UInt16]) -> Bitmap {
            Bitmap(width: 1, height: 1, pixelFormat: .rgba16, pixels: values.flatMap { value in withUnsafeBytes(of: value, Array.init) })
        }
        _ = compositor.draw(wide([1000, 0, 0, 65535]), as: try control(1, 1))
        let blended = compositor.draw(wide([0, 3001, 0, 32768]), as: try control(1, 1, blending: 1))
        let channels = blended.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(channels == [500, 1501, 0, 65535])
    }
}
