import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTestSupport

/// ``AnimatedImage`` on generated files: going back starts from the nearest key frame,
/// and an animation made from decoded frames plays them as they are.
@Suite
struct AnimatedImageTests {
    static let colors = TestImages.colors

    @Test func gifFramesThatCoverTheCanvasAreKeyFrames() throws {
        let frames = Self.colors.map { ImageFrame(bitmap: Bitmap.solid(8, 8, $0), duration: 0.1) }
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
                .init(bitmap: Bitmap.solid(8, 8, Self.colors[0])),
                .init(bitmap: Bitmap.solid(4, 4, Self.colors[1]), x: 2, y: 2),
                .init(bitmap: Bitmap.solid(8, 8, Self.colors[2])),
                .init(bitmap: Bitmap.solid(4, 4, Self.colors[3]), x: 4, y: 4),
                .init(bitmap: Bitmap.solid(2, 2, Self.colors[0])),
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
        let frames = Self.colors.map { ImageFrame(bitmap: Bitmap.solid(2, 2, $0), duration: 0.25) }
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
        let png = try PNGCoder().encode(Image(bitmap: Bitmap.solid(2, 2, Self.colors[0])), as: .png, options: ImageEncodeOptions())
        #expect(throws: ImageError.self) { try AnimatedImage(data: png, coder: PNGCoder()) }
    }
}
