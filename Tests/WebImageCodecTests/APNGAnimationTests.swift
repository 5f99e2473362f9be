import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImagePNG
import WebImageTestSupport

/// Animated PNGs generated chunk by chunk, decoded through ``PNGCoder``: frame
/// structure, hidden default images, limits and the fallback to the still image.
@Suite
struct APNGAnimationTests {
    let coder = PNGCoder()

    typealias FrameSpec = APNGTestFile.FrameSpec

    static let red = RGBA8(red: 255, green: 0, blue: 0)
    static let green = RGBA8(red: 0, green: 255, blue: 0)
    static let blue = RGBA8(red: 0, green: 0, blue: 255)

    static func solid(_ color: RGBA8, _ width: Int, _ height: Int) -> Bitmap {
        PNGCoderTests.solid(color, width: width, height: height)
    }

    // MARK: - Tests

    @Test func framesAreComposedWithDurationsAndLoopCount() throws {
        let data = try APNGTestFile.make(
            canvas: PixelSize(width: 6, height: 4),
            frames: [
                FrameSpec(bitmap: Self.solid(Self.red, 6, 4), delay: (3, 100)),
                FrameSpec(bitmap: Self.solid(Self.green, 2, 2), x: 4, y: 2, delay: (5, 0), disposal: 1),
                FrameSpec(bitmap: Self.solid(Self.blue, 1, 1), x: 0, y: 0, delay: (250, 1000)),
            ], loops: 3)
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(image.frames.count == 3)
        #expect(image.loopCount == 3)
        #expect(image.frames.map(\.duration) == [0.03, 0.05, 0.25])
        #expect(image.format == .png)
        #expect(image.frames[1].bitmap.rgba8(x: 5, y: 3) == Self.green)
        #expect(image.frames[1].bitmap.rgba8(x: 0, y: 0) == Self.red)
        #expect(image.frames[2].bitmap.rgba8(x: 5, y: 3).alpha == 0)
        #expect(image.frames[2].bitmap.rgba8(x: 0, y: 0) == Self.blue)
        #expect(image.frames[2].bitmap.rgba8(x: 1, y: 0) == Self.red)
        let info = try coder.animationInfo(of: data)
        #expect(info == AnimationInfo(canvasSize: PixelSize(width: 6, height: 4), loopCount: 3, frameDurations: [0.03, 0.05, 0.25]))
    }

    @Test func hiddenDefaultImageIsNotAFrame() throws {
        let data = try APNGTestFile.make(
            canvas: PixelSize(width: 3, height: 3),
            frames: [
                FrameSpec(bitmap: Self.solid(Self.red, 3, 3)),
                FrameSpec(bitmap: Self.solid(Self.green, 3, 3)),
            ], hiddenDefault: Self.solid(Self.blue, 3, 3))
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(image.frames.count == 2)
        #expect(image.frames[0].bitmap.rgba8(x: 1, y: 1) == Self.red)
        #expect(image.frames[1].bitmap.rgba8(x: 1, y: 1) == Self.green)
        let first = try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        #expect(first.bitmap.rgba8(x: 0, y: 0) == Self.red)
    }

    @Test func frameCountIsCappedByWhatIsPresent() throws {
        let data = try APNGTestFile.make(
            canvas: PixelSize(width: 2, height: 2),
            frames: [
                FrameSpec(bitmap: Self.solid(Self.red, 2, 2)),
                FrameSpec(bitmap: Self.solid(Self.green, 2, 2)),
            ], announced: 7)
        #expect(try coder.decode(data, options: ImageDecodeOptions()).frames.count == 2)
        #expect(try coder.animationInfo(of: data).frameCount == 2)
    }

    @Test func frameCountIsCappedByTheAnimationControl() throws {
        let data = try APNGTestFile.make(
            canvas: PixelSize(width: 2, height: 2),
            frames: [
                FrameSpec(bitmap: Self.solid(Self.red, 2, 2)),
                FrameSpec(bitmap: Self.solid(Self.green, 2, 2)),
                FrameSpec(bitmap: Self.solid(Self.blue, 2, 2)),
            ], announced: 2)
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(image.frames.count == 2)
        #expect(image.frames[1].bitmap.rgba8(x: 0, y: 0) == Self.green)
    }

    @Test func brokenFrameDataFallsBackToTheStillImage() throws {
        let data = try APNGTestFile.make(
            canvas: PixelSize(width: 8, height: 8),
            frames: [
                FrameSpec(bitmap: Self.solid(Self.red, 8, 8)),
                FrameSpec(bitmap: Self.solid(Self.green, 8, 8)),
            ], corruptLastFrameData: true)
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(image.frames.count == 1)
        #expect(image.bitmap.rgba8(x: 4, y: 4) == Self.red)
    }

    @Test func frameOutsideTheCanvasFallsBackToTheStillImage() throws {
        let data = try APNGTestFile.make(
            canvas: PixelSize(width: 4, height: 4),
            frames: [
                FrameSpec(bitmap: Self.solid(Self.red, 4, 4)),
                FrameSpec(bitmap: Self.solid(Self.green, 2, 2), x: 3, y: 3),
            ])
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(image.frames.count == 1)
        #expect(image.bitmap.rgba8(x: 3, y: 3) == Self.red)
    }

    @Test func frameMemoryIsCheckedBeforeDecoding() throws {
        let frames = (0..<4).map { FrameSpec(bitmap: Self.solid(RGBA8(red: UInt8($0), green: 0, blue: 0), 16, 16)) }
        let data = try APNGTestFile.make(canvas: PixelSize(width: 16, height: 16), frames: frames)
        var options = ImageDecodeOptions()
        options.maxTotalBytes = 16 * 16 * 4 * 3
        let error = #expect(throws: ImageError.self) { try coder.decode(data, options: options) }
        #expect(error?.code == .imageTooLarge)
        options.firstFrameOnly = true
        #expect(try coder.decode(data, options: options).frames.count == 1)
    }

    @Test func thumbnailsScaleEveryFrame() throws {
        let data = try APNGTestFile.make(
            canvas: PixelSize(width: 40, height: 20),
            frames: [
                FrameSpec(bitmap: Self.solid(Self.red, 40, 20)),
                FrameSpec(bitmap: Self.solid(Self.green, 40, 20)),
            ])
        let image = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 10, height: 10)))
        #expect(image.frames.count == 2)
        #expect(image.frames.allSatisfy { $0.bitmap.size == PixelSize(width: 10, height: 5) })
        #expect(image.frames[1].bitmap.rgba8(x: 5, y: 2) == Self.green)
    }

    @Test func incrementalDecodeShowsTheFirstFrame() throws {
        let data = try APNGTestFile.make(
            canvas: PixelSize(width: 4, height: 4),
            frames: [
                FrameSpec(bitmap: Self.solid(Self.red, 4, 4)),
                FrameSpec(bitmap: Self.solid(Self.green, 4, 4)),
            ])
        let image = try #require(try coder.decodeIncrementally(data, isComplete: true, options: ImageDecodeOptions()))
        #expect(image.frames.count == 1)
        #expect(image.bitmap.rgba8(x: 2, y: 2) == Self.red)
    }
}
