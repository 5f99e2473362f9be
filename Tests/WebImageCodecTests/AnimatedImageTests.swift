import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageTestSupport

/// ``AnimatedImage`` on generated files: going back starts from the nearest key frame,
/// and an animation made from decoded frames plays them as they are.
@Suite
struct AnimatedImageTests {
    static let colors = TestImages.colors

    @Test func gifFramesThatCoverTheCanvasAreKeyFrames() throws {
        let frames = Self.colors.map { ImageFrame(bitmap: APNGAnimationTests.solid($0, 8, 8), duration: 0.1) }
        let data = try GIFCoder().encode(Image(frames: frames, format: .gif), as: .gif, options: ImageEncodeOptions())
        let coder = CountingFrameCoder(GIFCoder())
        let animation = try AnimatedImage(data: data, coder: coder)
        #expect(try animation.frame(at: 3).bitmap == frames[3].bitmap)
        #expect(try animation.frame(at: 1).bitmap == frames[1].bitmap)
        #expect(coder.decodedFrames.withLockedValue { $0 } == [0, 3, 1])
    }

    @Test func apngGoesBackToTheLatestKeyFrameOnly() throws {
        // Frame 1 is drawn over part of the canvas, frame 2 replaces the whole canvas.
        let data = try APNGTestFile.make(
            canvas: PixelSize(width: 8, height: 8),
            frames: [
                .init(bitmap: APNGAnimationTests.solid(Self.colors[0], 8, 8)),
                .init(bitmap: APNGAnimationTests.solid(Self.colors[1], 4, 4), x: 2, y: 2),
                .init(bitmap: APNGAnimationTests.solid(Self.colors[2], 8, 8)),
                .init(bitmap: APNGAnimationTests.solid(Self.colors[3], 4, 4), x: 4, y: 4),
                .init(bitmap: APNGAnimationTests.solid(Self.colors[0], 2, 2)),
            ])
        let full = try PNGCoder().decode(data, options: ImageDecodeOptions())
        let coder = CountingFrameCoder(PNGCoder())
        let animation = try AnimatedImage(data: data, coder: coder)
        for index in [4, 3, 1, 2] {
            #expect(try animation.frame(at: index).bitmap == full.frames[index].bitmap)
        }
        #expect(coder.decodedFrames.withLockedValue { $0 } == [0, 2, 3, 4, 2, 3, 0, 1, 2])
    }

    @Test func animationOfDecodedFramesHandsThemOut() throws {
        let frames = Self.colors.map { ImageFrame(bitmap: APNGAnimationTests.solid($0, 2, 2), duration: 0.25) }
        let animation = AnimatedImage(Image(frames: frames, loopCount: 3, format: .gif))
        #expect(animation.frameCount == 4)
        #expect(animation.loopCount == 3)
        #expect(animation.data == nil)
        #expect(animation.duration == 1)
        for index in [2, 0, 3, 1] {
            #expect(try animation.frame(at: index) == frames[index])
        }
    }

    @Test func stillImagesAreRefused() throws {
        let png = try PNGCoder().encode(Image(bitmap: APNGAnimationTests.solid(Self.colors[0], 2, 2)), as: .png, options: ImageEncodeOptions())
        #expect(throws: ImageError.self) { try AnimatedImage(data: png, coder: PNGCoder()) }
    }
}
