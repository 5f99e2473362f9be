import Foundation
import Testing
import WebImageBMP
@testable import WebImageCore

/// Pixel and scratch arrays on a request's path come from `Array(repeating:imageSized:)`
/// and `Array(unsafeUninitializedImageSized:initializingWith:)`, which refuse a size no
/// memory can hold with `imageTooLarge` instead of trapping the process.
@Suite struct ImageSizedArrayTests {
    /// Whether `body` throws `ImageError` with code `imageTooLarge`.
    private static func refusesAsTooLarge(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch {
            return (error as? ImageError)?.code == .imageTooLarge
        }
    }

    @Test func aSizeNoMemoryCanHoldThrowsInsteadOfTrapping() {
        let overMemory = FloatPixelMemory.largestBuffer + 1
        #expect(Self.refusesAsTooLarge { _ = try [UInt8](repeating: 0, imageSized: 1 << 40, 1 << 40, 4) }, "overflowing product")
        #expect(Self.refusesAsTooLarge { _ = try [UInt8](repeating: 0, imageSized: overMemory) }, "over physical memory")
        #expect(Self.refusesAsTooLarge { _ = try [Float](repeating: 0, imageSized: overMemory / 4 + 1) }, "bytes, not elements, count")
        #expect(Self.refusesAsTooLarge { _ = try [Float](repeating: 0, imageSized: Int.max / 2) }, "overflowing bytes")
        #expect(Self.refusesAsTooLarge { _ = try [UInt8](repeating: 0, imageSized: 4, -1) }, "negative factor")
        var bodyRan = false
        #expect(
            Self.refusesAsTooLarge {
                _ = try [UInt8](unsafeUninitializedImageSized: 1 << 40, 1 << 40) { _, _ in bodyRan = true }
            })
        #expect(!bodyRan, "nothing is allocated or filled for a refused size")
    }

    @Test func sizesMemoryCanHoldAreAllocatedAndFilled() throws {
        #expect(try [UInt8](repeating: 7, imageSized: 3, 2, 4) == [UInt8](repeating: 7, count: 24))
        #expect(try [UInt8](repeating: 0, imageSized: 0, 5).isEmpty)
        let filled = try [UInt8](unsafeUninitializedImageSized: 2, 3) { buffer, initialized in
            for index in buffer.indices { buffer[index] = UInt8(index) }
            initialized = buffer.count
        }
        #expect(filled == [0, 1, 2, 3, 4, 5])
    }

    @Test func anErrorTheFillerThrowsComesBack() {
        #expect(throws: ImageError.self) {
            _ = try [UInt8](unsafeUninitializedImageSized: 8) { (_, _) throws(ImageError) in
                throw ImageError(.badImageData, "the decoder failed")
            }
        }
    }

    @Test func aZeroedBitmapNoMemoryCanHoldThrowsInsteadOfTrapping() throws {
        #expect(Self.refusesAsTooLarge { _ = try Bitmap(zeroedWidth: 1 << 40, height: 1 << 40) })
        #expect(Self.refusesAsTooLarge { _ = try Bitmap(zeroedWidth: 1_000_000, height: 1_000_000, pixelFormat: .rgba16) })
        #expect(Self.refusesAsTooLarge { _ = try Bitmap.filled(PixelSize(width: 1 << 40, height: 1 << 40), format: .rgba8, with: .clear) })
        let small = try Bitmap(zeroedWidth: 3, height: 2, pixelFormat: .rgba16)
        #expect(small.pixels == [UInt8](repeating: 0, count: 48))
    }

    /// A BMP header claiming 1,000,000 × 1,000,000 pixels, with the decoder's limits lifted,
    /// reaches the pixel allocation: 4 TB, refused as too large instead of trapping.
    @Test func aDecoderAskedForMoreThanMemoryThrowsInsteadOfTrapping() {
        var bytes: [UInt8] = Array("BM".utf8)
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
        append32(54)  // file size
        append32(0)
        append32(54)  // pixel offset
        append32(40)  // info header size
        append32(1_000_000)
        append32(1_000_000)
        append16(1)  // planes
        append16(24)  // bits per pixel
        append32(0)  // uncompressed
        append32(0)  // image size (may be 0 when uncompressed)
        append32(2835)
        append32(2835)
        append32(0)
        append32(0)
        var options = ImageDecodeOptions()
        options.maxPixelCount = .max
        options.maxTotalBytes = .max
        #expect(Self.refusesAsTooLarge { _ = try BMPCoder().decode(Data(bytes), options: options) })
    }
}
