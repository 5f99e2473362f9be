import Foundation
import Glibc
import Testing
import WebImage

@testable import WebImageServer

/// The decode worker's pixel file and the server's reading of an answer's image: the file
/// sealed at the plan takes no byte past it, and an answer that claims more pixels than the
/// plan is refused before anything is read or allocated for it.
@Suite("Decode worker pixel file")
struct DecodeWorkerPixelFileTests {
    /// The fields of `answer` as the worker writes them, without their length.
    static func fields(of answer: DecodeWorkerAnswer) -> Data {
        answer.encoded.dropFirst(8)
    }

    /// A still image of `width` × `height` RGBA pixels, every byte its offset's low bits.
    static func image(width: Int, height: Int) -> Image {
        let pixels = (0..<width * height * 4).map { UInt8(truncatingIfNeeded: $0) }
        return Image(bitmap: Bitmap(width: width, height: height, pixelFormat: .rgba8, pixels: pixels), format: .svg)
    }

    /// Writes `pixels` at `offset` of `file` as a worker would; whether all of them were written.
    static func write(_ pixels: [UInt8], to file: DecodeWorkerPixelFile, at offset: Int = 0) -> Bool {
        pixels.withUnsafeBytes { pwrite(file.descriptor, $0.baseAddress!, $0.count, off_t(offset)) == $0.count }
    }

    @Test func anImageWithinThePlanIsReadFromTheFile() throws {
        let file = try DecodeWorkerPixelFile.make()
        defer { file.close() }
        try file.seal(bytes: 64)
        let image = Self.image(width: 4, height: 4)
        #expect(Self.write(image.bitmap.pixels, to: file))
        let answer = try DecodeWorkerAnswer(fields: Self.fields(of: .image(image)), options: ImageDecodeOptions(), pixels: file, pixelBytes: 64)
        guard case .image(let read) = answer else {
            Issue.record("answered \(answer)")
            return
        }
        #expect(read.bitmap == image.bitmap)
        #expect(read.format == .svg)
    }

    @Test func theSealedFileTakesNoBytePastThePlan() throws {
        let file = try DecodeWorkerPixelFile.make()
        defer { file.close() }
        try file.seal(bytes: 64)
        #expect(!Self.write([UInt8](repeating: 1, count: 65), to: file))
        #expect(!Self.write([1], to: file, at: 64))
        #expect(ftruncate(file.descriptor, 1 << 30) != 0)
        var status = stat()
        #expect(fstat(file.descriptor, &status) == 0 && status.st_size == 64)
    }

    @Test func anAnswerClaimingMorePixelsThanThePlanIsRefused() throws {
        let file = try DecodeWorkerPixelFile.make()
        defer { file.close() }
        try file.seal(bytes: 64)
        // A worker that lies: its answer describes 5×4 pixels (80 bytes) for a plan of 64,
        // or a frame as large as the pixel limit allows.
        for (width, height) in [(5, 4), (1, 50_000_000)] {
            var options = ImageDecodeOptions()
            options.maxPixelCount = 50_000_000
            let lie = Self.fields(of: .image(Self.image(width: width, height: min(height, 4))))
            let claimed = height > 4 ? Self.withHeight(height, in: lie) : lie
            do throws(ImageError) {
                _ = try DecodeWorkerAnswer(fields: claimed, options: options, pixels: file, pixelBytes: 64)
                Issue.record("\(width)×\(height) pixels accepted for a plan of 64 bytes")
            } catch {
                #expect(error.code == .imageTooLarge, "\(error)")
            }
        }
    }

    /// `fields` of a one-frame image answer with the frame's height set to `height`.
    static func withHeight(_ height: Int, in fields: Data) -> Data {
        // The height is the frame's second number: after the magic, the kind, the format,
        // the orientation, the loop count, the scale, the alpha, the profile (empty) and
        // the frame count, and the width.
        let formatBytes = 8 + ImageFormat.svg.rawValue.utf8.count
        let offset = 8 * 2 + formatBytes + 8 * 4 + 8 + 8 + 8
        var changed = fields
        withUnsafeBytes(of: Int64(height).littleEndian) { changed.replaceSubrange(changed.startIndex + offset..<changed.startIndex + offset + 8, with: $0) }
        return changed
    }
}
