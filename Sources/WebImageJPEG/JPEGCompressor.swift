import CJPEG
import Foundation
import WebImageCore

/// A TurboJPEG compressor instance, destroyed when its owner goes out of scope.
///
/// TurboJPEG instances are not thread-safe and are cheap to create, so every encode
/// makes its own.
struct JPEGCompressor: ~Copyable {
    private let handle: tjhandle

    /// Creates a TurboJPEG compressor.
    init() throws(ImageError) {
        guard let handle = tjInitCompress() else {
            throw ImageError(.encodingFailed, "TurboJPEG could not create a compressor")
        }
        self.handle = handle
    }

    deinit {
        tjDestroy(handle)
    }

    /// Compresses 8-bit RGBA pixels (alpha ignored) into JPEG data.
    ///
    /// - Parameters:
    ///   - quality: 1 (smallest) to 100 (best).
    ///   - subsampling: a `TJSAMP` value for the chroma planes.
    /// - Throws: ``ImageError/Code/encodingFailed`` with TurboJPEG's message.
    func compress(rgba pixels: [UInt8], size: PixelSize, quality: Int, subsampling: TJSAMP) throws(ImageError) -> Data {
        guard let width = Int32(exactly: size.width), let height = Int32(exactly: size.height),
              width > 0, height > 0, pixels.count == size.width * size.height * 4
        else {
            throw ImageError(.encodingFailed, "a JPEG cannot hold an image of \(size)")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(
                handle, source.baseAddress, width, 0, height, Int32(TJPF_RGBA.rawValue),
                &output, &outputSize, Int32(subsampling.rawValue), Int32(quality), 0
            )
        }
        guard status == 0, let output else {
            let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
            tjFree(output)
            throw ImageError(.encodingFailed, "TurboJPEG cannot encode the image: \(message)")
        }
        return Data(bytesNoCopy: output, count: Int(outputSize), deallocator: .custom { bytes, _ in tjFree(bytes) })
    }
}
