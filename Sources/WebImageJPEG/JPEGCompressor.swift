import CJPEGShim
import Foundation
import WebImageCore

/// A libjpeg compressor writing one JPEG into memory through the project's C shim
/// (`CJPEGShim`), destroyed when its owner goes out of scope.
///
/// Rows can be written in any number of calls, so a caller can compress as it decodes.
/// The settings are those TurboJPEG 2.1's `tjCompress2` uses, so the files are the ones
/// it wrote: baseline, the IJG quality tables, the fast integer DCT below quality 96.
package struct JPEGCompressor: ~Copyable {
    private let handle: OpaquePointer
    private let size: PixelSize
    private let bytesPerPixel: Int

    /// Starts a JPEG of `size` from rows of `pixels` (alpha, if any, ignored).
    ///
    /// - Parameters:
    ///   - quality: 1 (smallest) to 100 (best).
    ///   - lumaSampling: how many times denser than chroma luminance is sampled,
    ///     horizontally and vertically, 1 to 4 each: 2×2 is 4:2:0, 1×1 is 4:4:4.
    /// - Throws: ``ImageError/Code/encodingFailed`` with libjpeg's message.
    package init(size: PixelSize, pixels: JPEGPixelLayout, quality: Int, lumaSampling: PixelSize) throws(ImageError) {
        guard let width = UInt32(exactly: size.width), let height = UInt32(exactly: size.height),
            width > 0, height > 0, width <= 65500, height <= 65500
        else {
            throw ImageError(.encodingFailed, "a JPEG cannot hold an image of \(size)")
        }
        guard let handle = cjpeg_encoder_create() else {
            throw ImageError(.encodingFailed, "libjpeg could not allocate a compressor")
        }
        let status = cjpeg_encoder_start(
            handle, width, height, pixels.shimValue, Int32(min(max(quality, 1), 100)),
            Int32(clamping: lumaSampling.width), Int32(clamping: lumaSampling.height)
        )
        guard status == 0 else {
            let error = Self.failure(handle)
            cjpeg_encoder_destroy(handle)
            throw error
        }
        self.handle = handle
        self.size = size
        self.bytesPerPixel = pixels.bytesPerPixel
    }

    deinit {
        cjpeg_encoder_destroy(handle)
    }

    /// Compresses `rows`: whole rows of the image, in order, `bytesPerRow` bytes apart.
    package func write(rows: UnsafeRawBufferPointer, bytesPerRow: Int) throws(ImageError) {
        guard let base = rows.baseAddress, bytesPerRow >= size.width * bytesPerPixel else { return }
        let count = rows.count / bytesPerRow
        let status = cjpeg_encoder_write_rows(
            handle, base.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(count)
        )
        guard status == 0 else { throw failure() }
    }

    /// Ends the file once every row is written and returns it.
    package consuming func finish() throws(ImageError) -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        guard cjpeg_encoder_finish(handle, &bytes, &count) == 0, let bytes else { throw failure() }
        return Data(bytesNoCopy: bytes, count: count, deallocator: .free)
    }

    private func failure() -> ImageError {
        Self.failure(handle)
    }

    private static func failure(_ handle: OpaquePointer) -> ImageError {
        ImageError(.encodingFailed, "libjpeg cannot encode the image: \(String(cString: cjpeg_encoder_message(handle)))")
    }
}
