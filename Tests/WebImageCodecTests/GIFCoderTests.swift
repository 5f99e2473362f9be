import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImagePNG
@testable import WebImageGIF
import WebImageTestSupport

@Suite("GIFCoder")
struct GIFCoderTests {
    let coder = GIFCoder()

    /// Three 7×5 frames of a few colours each, with transparent pixels in the second.
    static func makeAnimation(loopCount: Int) -> Image {
        let palette: [RGBA8] = [
            RGBA8(red: 255, green: 0, blue: 0, alpha: 255), RGBA8(red: 0, green: 200, blue: 30, alpha: 255),
            RGBA8(red: 10, green: 20, blue: 250, alpha: 255), RGBA8(red: 0, green: 0, blue: 0, alpha: 0),
        ]
        let frames = (0..<3).map { frameIndex in
            var pixels: [UInt8] = []
            for y in 0..<5 {
                for x in 0..<7 {
                    var colorIndex = (x + y + frameIndex) % 3
                    if frameIndex == 1, x == y { colorIndex = 3 }
                    let color = palette[colorIndex]
                    pixels += [color.red, color.green, color.blue, color.alpha]
                }
            }
            return ImageFrame(bitmap: Bitmap(width: 7, height: 5, pixels: pixels), duration: [0.12, 0.5, 0.03][frameIndex])
        }
        return Image(frames: frames, loopCount: loopCount)
    }

    @Test("an animation with transparency round-trips exactly")
    func animatedRoundTrip() throws {
        let original = Self.makeAnimation(loopCount: 0)
        let data = try coder.encode(original, as: .gif, options: ImageEncodeOptions())
        #expect(coder.canDecode(data))
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.frames.count == 3)
        #expect(decoded.loopCount == 0)
        #expect(decoded.hasAlpha)
        #expect(decoded.format == .gif)
        for (copy, source) in zip(decoded.frames, original.frames) {
            #expect(copy.bitmap == source.bitmap)
            #expect(abs(copy.duration - source.duration) < 1e-9)
        }
        let info = try coder.animationInfo(of: data)
        #expect(info.canvasSize == PixelSize(width: 7, height: 5))
        #expect(info.frameDurations.count == 3)
        #expect(abs(info.frameDurations[1] - 0.5) < 1e-9)
    }

    @Test("loop counts survive a round trip; 1 is written as no NETSCAPE block", arguments: [0, 1, 3, 65535])
    func loopCountRoundTrip(loopCount: Int) throws {
        let data = try coder.encode(Self.makeAnimation(loopCount: loopCount), as: .gif, options: ImageEncodeOptions())
        #expect(try coder.decode(data, options: ImageDecodeOptions()).loopCount == loopCount)
        #expect(try coder.animationInfo(of: data).loopCount == loopCount)
        #expect((data.range(of: Data("NETSCAPE2.0".utf8)) != nil) == (loopCount != 1))
    }

    @Test("first frame only, both when decoding and when encoding")
    func firstFrameOnly() throws {
        let original = Self.makeAnimation(loopCount: 0)
        let data = try coder.encode(original, as: .gif, options: ImageEncodeOptions())
        let first = try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        #expect(first.bitmap == original.bitmap)
        let still = try coder.encode(original, as: .gif, options: ImageEncodeOptions(firstFrameOnly: true))
        let decodedStill = try coder.decode(still, options: ImageDecodeOptions())
        #expect(decodedStill.frames.count == 1)
        #expect(decodedStill.frames[0].duration == 0)
        #expect(decodedStill.bitmap == original.bitmap)
    }

    @Test("an image of more than 256 colours is reduced to a close palette")
    func medianCut() throws {
        var pixels: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), UInt8((x + y) * 2), 255] }
        }
        let bitmap = Bitmap(width: 64, height: 64, pixels: pixels)
        let data = try coder.encode(Image(bitmap: bitmap), as: .gif, options: ImageEncodeOptions())
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.pixelSize == PixelSize(width: 64, height: 64))
        #expect(!decoded.hasAlpha)
        var worst = 0
        var distinct = Set<UInt32>()
        for y in 0..<64 {
            for x in 0..<64 {
                let a = decoded.bitmap.rgba8(x: x, y: y), b = bitmap.rgba8(x: x, y: y)
                worst = max(worst, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
                distinct.insert(UInt32(a.red) | UInt32(a.green) << 8 | UInt32(a.blue) << 16)
            }
        }
        #expect(distinct.count <= 256)
        #expect(distinct.count > 128)
        #expect(worst <= 24)
    }

    @Test("a thumbnail scales every frame down")
    func thumbnail() throws {
        let data = try coder.encode(Self.makeAnimation(loopCount: 0), as: .gif, options: ImageEncodeOptions())
        let small = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 3, height: 3)))
        #expect(small.pixelSize == PixelSize(width: 3, height: 2))
        #expect(small.frames.count == 3)
        #expect(try coder.decode(data, options: ImageDecodeOptions(scaleFactor: 2)).scale == 2)
    }

    @Test("bad input is a typed error")
    func badInput() throws {
        let valid = try coder.encode(Self.makeAnimation(loopCount: 0), as: .gif, options: ImageEncodeOptions())
        #expect(throws: ImageError.self) { try coder.decode(Data(), options: ImageDecodeOptions()) }
        #expect(throws: ImageError.self) { try coder.decode(Data("GIF89a".utf8), options: ImageDecodeOptions()) }
        #expect(throws: ImageError.self) { try coder.decode(valid.prefix(20), options: ImageDecodeOptions()) }
        #expect(throws: ImageError.self) { try coder.decode(Data("PNG not a gif".utf8), options: ImageDecodeOptions()) }
        // A truncation inside the second frame keeps the complete first frame.
        let truncated = try coder.decode(valid.prefix(valid.count - 40), options: ImageDecodeOptions())
        #expect(truncated.frames.count >= 1 && truncated.frames.count < 3)
        // A 65535×65535 screen with nothing after it.
        var huge = Data("GIF89a".utf8)
        huge += [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x02]
        let error = try #require(throws: ImageError.self) { try coder.decode(huge, options: ImageDecodeOptions()) }
        #expect(error.code == .imageTooLarge)
    }

    /// A hand-made 2×1 GIF: screen descriptor (with a 2-colour red/green map when
    /// `colorMap`), one image and LZW codes clear, `first`, `second`, end (3-bit codes).
    static func tinyGIF(colorMap: Bool, lzw: [UInt8]) -> Data {
        var bytes = Array("GIF89a".utf8) + [2, 0, 1, 0, colorMap ? 0x80 : 0x00, 0, 0]
        if colorMap { bytes += [255, 0, 0, 0, 255, 0] }
        bytes += [0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0x00, 0x02, UInt8(lzw.count)] + lzw + [0x00, 0x3B]
        return Data(bytes)
    }

    @Test("a missing colour map and out-of-range indices give transparent pixels")
    func missingColors() throws {
        let noMap = try coder.decode(Self.tinyGIF(colorMap: false, lzw: [0x4C, 0x0A]), options: ImageDecodeOptions())
        #expect(noMap.pixelSize == PixelSize(width: 2, height: 1))
        #expect(noMap.bitmap.pixels == [UInt8](repeating: 0, count: 8))
        #expect(noMap.hasAlpha)
        let outOfRange = try coder.decode(Self.tinyGIF(colorMap: true, lzw: [0xC4, 0x0A]), options: ImageDecodeOptions())
        #expect(outOfRange.bitmap.rgba8(x: 0, y: 0) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(outOfRange.bitmap.rgba8(x: 1, y: 0) == RGBA8(red: 0, green: 0, blue: 0, alpha: 0))
        #expect(try coder.animationInfo(of: Self.tinyGIF(colorMap: true, lzw: [0xC4, 0x0A])).loopCount == 1)
    }

    @Test("encoding refuses other formats")
    func encodeFormats() {
        #expect(coder.canEncode(to: .gif))
        #expect(!coder.canEncode(to: .png))
        #expect(throws: ImageError.self) {
            try coder.encode(Self.makeAnimation(loopCount: 0), as: .png, options: ImageEncodeOptions())
        }
    }
}

@Suite("GIFCoder on the corpora", Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct GIFCoderCorpusTests {
    let coder = GIFCoder()

    /// `results.txt` of the Rust `gif` crate: a CRC-32 over every frame's own RGBA pixels
    /// (frame rectangle only, not composed; the transparent index keeps its RGB with alpha 0).
    static func expectedChecksums() throws -> [String: UInt32] {
        let text = try String(contentsOf: Corpus.url("image-gif-tests/results.txt"), encoding: .utf8)
        var result: [String: UInt32] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let value = UInt32(parts[1]) else { continue }
            result[String(parts[0].split(separator: "/").last!)] = value
        }
        return result
    }

    /// The CRC-32 (IEEE) of the raw frames of a GIF, read with the coder's own reader.
    static func rawFramesChecksum(_ data: Data) throws -> UInt32 {
        var crc = CRC32()
        try data.withUnsafeBytes { bytes in
            let reader = try GIFReader(bytes: bytes)
            var transparent: Int?
            while true {
                switch try reader.nextRecord() {
                case .end:
                    return
                case .graphicControl(let control):
                    transparent = control.transparentIndex
                case .loopCount:
                    break
                case .frame(let frame):
                    var colors = frame.colorTable.map { UInt32(littleEndian: $0) }
                    if let transparent { colors[transparent] &= 0x00FF_FFFF }
                    var pixels = [UInt32](repeating: 0, count: frame.width * frame.height)
                    try pixels.withUnsafeMutableBufferPointer { output in
                        try colors.withUnsafeBufferPointer { table in
                            try reader.readRows(of: frame) { row, indices in
                                for column in 0..<indices.count {
                                    output[row * frame.width + column] = table[Int(indices[column])].littleEndian
                                }
                            }
                        }
                    }
                    pixels.withUnsafeBytes { crc.update($0) }
                    transparent = nil
                }
            }
        }
        return crc.value
    }

    @Test("samples/ decode and their raw frames match results.txt")
    func samples() throws {
        let checksums = try Self.expectedChecksums()
        let files = Corpus.files(in: "image-gif-tests/samples", extensions: ["gif"])
        #expect(files.count == 12)
        for file in files {
            let data = try Data(contentsOf: file)
            let image = try coder.decode(data, options: ImageDecodeOptions())
            let info = try coder.animationInfo(of: data)
            #expect(image.frames.count == info.frameCount, "\(file.lastPathComponent)")
            #expect(image.pixelSize == info.canvasSize, "\(file.lastPathComponent)")
            let expected = try #require(checksums[file.lastPathComponent], "\(file.lastPathComponent)")
            #expect(try Self.rawFramesChecksum(data) == expected, "\(file.lastPathComponent)")
        }
    }

    @Test("regression/ decode; crashtest/ and stall/ end with an image or an error")
    func hostileFiles() throws {
        for file in Corpus.files(in: "image-gif-tests/regression") {
            let image = try coder.decode(Data(contentsOf: file), options: ImageDecodeOptions())
            #expect(image.pixelWidth > 0, "\(file.lastPathComponent)")
        }
        let hostile = Corpus.files(in: "image-gif-tests/crashtest") + Corpus.files(in: "image-gif-tests/stall")
        #expect(hostile.count == 4)
        for file in hostile {
            let data = try Data(contentsOf: file)
            do {
                let image = try coder.decode(data, options: ImageDecodeOptions())
                #expect(image.frames.count >= 1)
            } catch {
                #expect(!error.message.isEmpty)
            }
            _ = try? coder.animationInfo(of: data)
        }
    }

    @Test("SDWebImage fixtures: frame counts, delays, loop counts, sizes")
    func sdwebimage() throws {
        let cases: [(String, Int, Double, Int, PixelSize)] = [
            ("TestImage.gif", 5, 0.12, 0, PixelSize(width: 50, height: 50)),
            ("TestLoopCount.gif", 2, 0.5, 1, PixelSize(width: 72, height: 48)),
            ("1@2x.gif", 44, 0.09, 65535, PixelSize(width: 400, height: 400)),
        ]
        for (name, frameCount, delay, loopCount, size) in cases {
            let data = try Corpus.data("sdwebimage/\(name)")
            let image = try coder.decode(data, options: ImageDecodeOptions())
            #expect(image.frames.count == frameCount, "\(name)")
            #expect(image.frames.allSatisfy { abs($0.duration - delay) < 1e-9 }, "\(name)")
            #expect(image.loopCount == loopCount, "\(name)")
            #expect(image.pixelSize == size, "\(name)")
            let info = try coder.animationInfo(of: data)
            #expect(info.frameCount == frameCount && info.loopCount == loopCount && info.canvasSize == size, "\(name)")
        }
    }

    @Test(
        "decompression bombs are refused or decoded within the limits",
        arguments: [
            "decompression_bomb.gif", "decompression_bomb_extents.gif",
        ])
    func bombs(name: String) throws {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1 << 22
        options.maxTotalBytes = 64 << 20
        let data = try Corpus.data("decompression-bombs/\(name)")
        do {
            let image = try coder.decode(data, options: options)
            #expect(image.pixelSize.pixelCount! <= options.maxPixelCount)
            #expect(image.memoryCost <= options.maxTotalBytes)
        } catch {
            #expect(error.code == .imageTooLarge || error.code == .badImageData)
        }
    }

    @Test("Wuffs GIFs all terminate; artificial ones have the described pixels")
    func wuffs() throws {
        let files =
            Corpus.files(in: "wuffs-test-data", extensions: ["gif"])
            + Corpus.files(in: "wuffs-test-data/artificial-gif", extensions: ["gif"])
        #expect(files.count > 20)
        for file in files {
            _ = try? coder.decode(Data(contentsOf: file), options: ImageDecodeOptions())
        }
        let regular = try coder.decode(Corpus.data("wuffs-test-data/hippopotamus.regular.gif"), options: ImageDecodeOptions())
        let interlaced = try coder.decode(Corpus.data("wuffs-test-data/hippopotamus.interlaced.gif"), options: ImageDecodeOptions())
        #expect(regular.bitmap == interlaced.bitmap)

        // transparent-index.gif: 4×2 reds, then a 3×1 frame at (1, 1) whose middle pixel is transparent.
        let transparent = try coder.decode(
            Corpus.data("wuffs-test-data/artificial-gif/transparent-index.gif"), options: ImageDecodeOptions())
        #expect(transparent.frames.map(\.duration) == [0.1, 0.2])
        let last = transparent.frames[1].bitmap
        #expect(last.rgba8(x: 0, y: 0) == RGBA8(red: 0x80, green: 0, blue: 0, alpha: 255))
        #expect(last.rgba8(x: 1, y: 1) == RGBA8(red: 0, green: 0, blue: 0xFF, alpha: 255))
        #expect(last.rgba8(x: 2, y: 1) == RGBA8(red: 0xE0, green: 0, blue: 0, alpha: 255))
        #expect(last.rgba8(x: 3, y: 1) == RGBA8(red: 0, green: 0, blue: 0x55, alpha: 255))

        // frame-out-of-bounds.gif: a 2×2 canvas; frames are clipped to it.
        let clipped = try coder.decode(
            Corpus.data("wuffs-test-data/artificial-gif/frame-out-of-bounds.gif"), options: ImageDecodeOptions())
        #expect(clipped.pixelSize == PixelSize(width: 2, height: 2))
        #expect(clipped.frames.count == 4)
        let composed = clipped.frames[3].bitmap
        #expect(composed.rgba8(x: 0, y: 0).alpha == 0)
        #expect(composed.rgba8(x: 1, y: 0) == RGBA8(red: 0x11, green: 0, blue: 0xFF, alpha: 255))
        #expect(composed.rgba8(x: 0, y: 1) == RGBA8(red: 0, green: 0x88, blue: 0xFF, alpha: 255))
        #expect(composed.rgba8(x: 1, y: 1) == RGBA8(red: 0, green: 0x99, blue: 0xFF, alpha: 255))

        // background-color.gif: disposal to background clears the first frame before the second.
        let background = try coder.decode(
            Corpus.data("wuffs-test-data/artificial-gif/background-color.gif"), options: ImageDecodeOptions())
        #expect(background.loopCount == 1)
        let second = background.frames[1].bitmap
        #expect(background.frames[0].bitmap.rgba8(x: 1, y: 0) == RGBA8(red: 0x80, green: 0, blue: 0xC1, alpha: 255))
        #expect(second.rgba8(x: 0, y: 0).alpha == 0)
        #expect(second.rgba8(x: 2, y: 0) == RGBA8(red: 0x80, green: 0xC2, blue: 0, alpha: 255))
    }
}

/// The CRC-32 of IEEE 802.3 (zlib's), as the gif crate's tests compute it.
private struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { byte in
        (0..<8).reduce(UInt32(byte)) { value, _ in value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    }
    private var state: UInt32 = 0xFFFF_FFFF

    var value: UInt32 { state ^ 0xFFFF_FFFF }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes {
                state = table[Int((state ^ UInt32(byte)) & 0xFF)] ^ (state >> 8)
            }
        }
    }
}
