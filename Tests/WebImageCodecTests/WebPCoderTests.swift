import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImagePNG
@testable import WebImageWebP
import WebImageTestSupport

@Suite("WebPCoder")
struct WebPCoderTests {
    let coder = WebPCoder()

    /// A smooth, deterministic picture; with `alpha`, a transparent band whose colour
    /// must survive lossless encoding too.
    static func makeBitmap(width: Int, height: Int, seed: Int = 0, alpha: Bool = false) -> Bitmap {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let opacity: UInt8 = alpha ? (x < width / 4 ? 0 : UInt8(clamping: 128 + y)) : 255
                pixels += [UInt8((x * 3 + seed * 40) & 0xFF), UInt8((y * 2 + seed * 70) & 0xFF), UInt8((x + y) & 0xFF), opacity]
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    static func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.size == b.size)
        let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(a.pixels.count)
    }

    @Test("lossless round trip is exact, alpha and hidden colours included")
    func losslessRoundTrip() throws {
        let bitmap = Self.makeBitmap(width: 37, height: 23, alpha: true)
        let data = try coder.encode(Image(bitmap: bitmap), as: .webp, options: ImageEncodeOptions(lossless: true))
        #expect(coder.canDecode(data))
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.bitmap == bitmap)
        #expect(decoded.hasAlpha)
        #expect(decoded.format == .webp)
        #expect(decoded.frames.count == 1)
    }

    @Test("lossy round trip stays close, and quality matters")
    func lossyRoundTrip() throws {
        let bitmap = Self.makeBitmap(width: 64, height: 48)
        let good = try coder.encode(Image(bitmap: bitmap), as: .webp, options: ImageEncodeOptions(quality: 0.95))
        let poor = try coder.encode(Image(bitmap: bitmap), as: .webp, options: ImageEncodeOptions(quality: 0.05))
        #expect(poor.count < good.count)
        let decoded = try coder.decode(good, options: ImageDecodeOptions())
        #expect(decoded.pixelSize == bitmap.size)
        #expect(!decoded.hasAlpha)
        #expect(Self.meanDifference(decoded.bitmap, bitmap) < 3)
    }

    @Test("an animation keeps its frames, durations and loop count")
    func animatedRoundTrip() throws {
        let durations = [0.1, 0.25, 0.05]
        let frames = durations.enumerated().map { index, duration in
            ImageFrame(bitmap: Self.makeBitmap(width: 40, height: 30, seed: index + 1), duration: duration)
        }
        let original = Image(frames: frames, loopCount: 3)
        let data = try coder.encode(original, as: .webp, options: ImageEncodeOptions(lossless: true))
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.frames.count == 3)
        #expect(decoded.loopCount == 3)
        for (copy, source) in zip(decoded.frames, original.frames) {
            #expect(abs(copy.duration - source.duration) < 1e-9)
            #expect(copy.bitmap == source.bitmap)
        }
        let info = try coder.animationInfo(of: data)
        #expect(info.canvasSize == PixelSize(width: 40, height: 30))
        #expect(info.loopCount == 3)
        #expect(zip(info.frameDurations, durations).allSatisfy { abs($0 - $1) < 1e-9 })

        let forever = try coder.encode(Image(frames: frames, loopCount: 0), as: .webp, options: ImageEncodeOptions())
        #expect(try coder.decode(forever, options: ImageDecodeOptions()).loopCount == 0)
        let first = try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1 && first.bitmap == original.bitmap)
        let still = try coder.encode(original, as: .webp, options: ImageEncodeOptions(firstFrameOnly: true, lossless: true))
        #expect(try coder.animationInfo(of: still).frameDurations == [0])
        #expect(try coder.decode(still, options: ImageDecodeOptions()).bitmap == original.bitmap)
    }

    @Test("a frame of 10 ms or less shows for 100 ms, as in browsers")
    func shortFrames() throws {
        let frames = [0.005, 0.2].enumerated().map { index, duration in
            ImageFrame(bitmap: Self.makeBitmap(width: 8, height: 8, seed: index), duration: duration)
        }
        let data = try coder.encode(Image(frames: frames), as: .webp, options: ImageEncodeOptions(lossless: true))
        #expect(try coder.decode(data, options: ImageDecodeOptions()).frames.map(\.duration) == [0.1, 0.2])
        #expect(try coder.animationInfo(of: data).frameDurations == [0.1, 0.2])
    }

    @Test("thumbnails use libwebp's scaler for stills and resize animation frames")
    func thumbnails() throws {
        let box = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 20, height: 20), scaleFactor: 2)
        let still = try coder.encode(Image(bitmap: Self.makeBitmap(width: 80, height: 40)), as: .webp, options: ImageEncodeOptions())
        let small = try coder.decode(still, options: box)
        #expect(small.pixelSize == PixelSize(width: 20, height: 10))
        #expect(small.scale == 2)
        let frames = (0..<2).map { ImageFrame(bitmap: Self.makeBitmap(width: 80, height: 40, seed: $0), duration: 0.1) }
        let animation = try coder.encode(Image(frames: frames), as: .webp, options: ImageEncodeOptions())
        let smallAnimation = try coder.decode(animation, options: box)
        #expect(smallAnimation.frames.count == 2)
        #expect(smallAnimation.pixelSize == PixelSize(width: 20, height: 10))
    }

    @Test("partial data gives the rows decoded so far, undecoded rows transparent")
    func incremental() throws {
        var bitmap = Self.makeBitmap(width: 64, height: 256)
        for index in stride(from: 0, to: bitmap.pixels.count, by: 7) { bitmap.pixels[index] &+= UInt8(index % 97) }
        let data = try coder.encode(Image(bitmap: bitmap), as: .webp, options: ImageEncodeOptions(quality: 1))
        #expect(coder.canDecodeIncrementally(data.prefix(12)))
        #expect(try coder.decodeIncrementally(data.prefix(20), isComplete: false, options: ImageDecodeOptions()) == nil)
        let partial = try #require(try coder.decodeIncrementally(data.prefix(data.count / 2), isComplete: false, options: ImageDecodeOptions()))
        #expect(partial.pixelSize == bitmap.size)
        #expect(partial.bitmap.rgba8(x: 0, y: 0).alpha == 255)
        #expect(partial.bitmap.rgba8(x: 10, y: 255).alpha == 0)
        let complete = try #require(try coder.decodeIncrementally(data, isComplete: true, options: ImageDecodeOptions()))
        #expect(complete.bitmap == (try coder.decode(data, options: ImageDecodeOptions())).bitmap)
    }

    @Test("bad input is a typed error")
    func badInput() throws {
        let valid = try coder.encode(Image(bitmap: Self.makeBitmap(width: 30, height: 30)), as: .webp, options: ImageEncodeOptions())
        var riffOnly = Data("RIFF".utf8) + [0x04, 0, 0, 0] + Data("WEBP".utf8)
        let inputs: [Data] = [
            Data(), riffOnly, valid.prefix(30), valid.prefix(valid.count - 10),
            Data("RIFF".utf8) + valid[4..<8] + Data("WEBX".utf8) + valid.dropFirst(12),
        ]
        for input in inputs {
            #expect(throws: ImageError.self) { try coder.decode(input, options: ImageDecodeOptions()) }
        }
        riffOnly += Data("VP9 ".utf8) + [0, 0, 0, 0]
        #expect(throws: ImageError.self) { try coder.decode(riffOnly, options: ImageDecodeOptions()) }
        #expect(throws: ImageError.self) { try coder.animationInfo(of: valid.prefix(16)) }
        var tight = ImageDecodeOptions()
        tight.maxPixelCount = 100
        let error = try #require(throws: ImageError.self) { try coder.decode(valid, options: tight) }
        #expect(error.code == .imageTooLarge)
        #expect(!coder.canEncode(to: .gif))
    }
}

@Suite("WebPCoder on the corpora", Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct WebPCoderCorpusTests {
    let coder = WebPCoder()

    @Test("every libwebp conformance file decodes")
    func libwebpTestData() throws {
        let files = Corpus.files(in: "libwebp-test-data", extensions: ["webp"])
        #expect(files.count > 100)
        for file in files {
            let image = try coder.decode(Data(contentsOf: file), options: ImageDecodeOptions())
            #expect(image.pixelWidth > 0 && image.pixelHeight > 0, "\(file.lastPathComponent)")
        }
        let bryce = try coder.decode(Corpus.data("libwebp-test-data/bryce.webp"), options: ImageDecodeOptions())
        #expect(bryce.pixelSize == PixelSize(width: 11158, height: 2156))
        let thumbnail = try coder.decode(
            Corpus.data("libwebp-test-data/bryce.webp"),
            options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 1000, height: 1000)))
        #expect(thumbnail.pixelSize == PixelSize(width: 1000, height: 193))
    }

    @Test("SDWebImage fixtures and the animated test images")
    func animations() throws {
        let animated = try coder.decode(Corpus.data("sdwebimage/TestImageAnimated.webp"), options: ImageDecodeOptions())
        #expect(animated.frames.count == 8)
        #expect(animated.frames.allSatisfy { abs($0.duration - 0.1) < 1e-9 })
        #expect(animated.loopCount == 0)
        #expect(animated.pixelSize == PixelSize(width: 990, height: 1050))
        let memory = try coder.decode(Corpus.data("sdwebimage/TestAnimatedImageMemory.webp"), options: ImageDecodeOptions())
        #expect(memory.frames.count == 16)
        #expect(memory.pixelSize == PixelSize(width: 600, height: 600))
        #expect(memory.memoryCost == 16 * 600 * 600 * 4)
        let still = try coder.decode(Corpus.data("sdwebimage/TestImageStatic.webp"), options: ImageDecodeOptions())
        #expect(still.pixelSize == PixelSize(width: 550, height: 368))
        #expect(!still.hasAlpha)
        for (name, count) in [("random_lossless", 3), ("random_lossy", 4)] {
            let data = try Corpus.data("image-webp-tests/images/animated/\(name).webp")
            #expect(try coder.decode(data, options: ImageDecodeOptions()).frames.count == count)
            #expect(try coder.animationInfo(of: data).frameCount == count)
        }
    }

    /// Whether the PNG coder can read the reference images (it can once it is built).
    static let canReadReferences: Bool = {
        guard let data = try? Corpus.data("image-webp-tests/reference/gallery1/1.png") else { return false }
        return PNGCoder().canDecode(data)
    }()

    @Test("image-webp-tests pixels match the reference PNGs", .enabled(if: canReadReferences, "needs the PNG coder"))
    func referencePixels() throws {
        for folder in ["gallery1", "gallery2", "regression", "animated"] {
            for file in Corpus.files(in: "image-webp-tests/images/\(folder)", extensions: ["webp"]) {
                let data = try Data(contentsOf: file)
                let image = try coder.decode(data, options: ImageDecodeOptions())
                let isLossless = data.range(of: Data("VP8L".utf8)) != nil && data.range(of: Data("VP8 ".utf8)) == nil
                let name = file.deletingPathExtension().lastPathComponent
                for (index, frame) in image.frames.enumerated() {
                    let suffix = image.isAnimated ? "-\(index + 1)" : ""
                    let reference = Corpus.url("image-webp-tests/reference/\(folder)/\(name)\(suffix).png")
                    guard FileManager.default.fileExists(atPath: reference.path) else { continue }
                    let expected = try ImageCodersManager.shared.decode(Data(contentsOf: reference)).bitmap.convertedToRGBA8()
                    #expect(frame.bitmap.size == expected.size, "\(name)\(suffix)")
                    guard frame.bitmap.size == expected.size else { continue }
                    // Lossless stills are exact. Lossy references come from dwebp, and animated
                    // ones are frames extracted by webpmux before blending: allow ±1.
                    if isLossless, !image.isAnimated {
                        #expect(frame.bitmap == expected, "\(name)\(suffix)")
                    } else {
                        let largest = zip(frame.bitmap.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
                        #expect(largest <= 1, "\(name)\(suffix)")
                    }
                }
            }
        }
    }
}
