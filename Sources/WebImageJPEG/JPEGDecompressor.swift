import CJPEG
import WebImageCore

/// A TurboJPEG decompressor instance, destroyed when its owner goes out of scope.
///
/// TurboJPEG instances are not thread-safe and are cheap to create, so every decode
/// makes its own.
struct JPEGDecompressor: ~Copyable {
    /// What the JPEG header declares.
    struct Header: Sendable, Hashable {
        /// The stored size (before any orientation).
        var size: PixelSize
        /// The colour space of the JPEG data (a `TJCS` value).
        var colorspace: Int32

        /// Whether the data holds ink (CMYK or YCCK), which TurboJPEG only hands out as CMYK.
        var isCMYK: Bool {
            colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        }
    }

    /// The pixels of a decompression and the warning TurboJPEG gave, if any.
    struct Output {
        /// The pixels, packed rows, 4 bytes per pixel.
        var pixels: [UInt8]
        /// The first non-fatal problem TurboJPEG reported (such as data ending early):
        /// the pixels are all written but may be partly made up.
        var warning: String?
    }

    private let handle: tjhandle

    /// Creates a TurboJPEG decompressor.
    init() throws(ImageError) {
        guard let handle = tjInitDecompress() else {
            throw ImageError(.badImageData, "TurboJPEG could not create a decompressor")
        }
        self.handle = handle
    }

    deinit {
        tjDestroy(handle)
    }

    /// Reads the header of the JPEG in `jpeg`.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` with TurboJPEG's message when the header
    ///   is damaged or incomplete.
    func readHeader(_ jpeg: UnsafeRawBufferPointer) throws(ImageError) -> Header {
        guard let base = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError(.emptyData, "the JPEG data is empty")
        }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = tjDecompressHeader3(handle, base, UInt(jpeg.count), &width, &height, &subsampling, &colorspace)
        // A warning still fills the header; only a fatal error (or no size) is a failure.
        guard status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue), width > 0, height > 0 else {
            throw ImageError(.badImageData, "TurboJPEG cannot read the JPEG header: \(errorMessage)")
        }
        return Header(size: PixelSize(width: Int(width), height: Int(height)), colorspace: colorspace)
    }

    /// Decompresses the JPEG in `jpeg` into new pixels of `size` (one of TurboJPEG's scaled
    /// sizes) and `pixelFormat` (a 4-byte `TJPF` value).
    ///
    /// - Throws: ``ImageError/Code/badImageData`` with TurboJPEG's message on a fatal error.
    func decompress(_ jpeg: UnsafeRawBufferPointer, size: PixelSize, pixelFormat: TJPF) throws(ImageError) -> Output {
        guard let base = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let width = Int32(exactly: size.width), let height = Int32(exactly: size.height)
        else {
            throw ImageError(.badImageData, "the JPEG size \(size) cannot be decoded")
        }
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: size.width * size.height * 4) { buffer, count in
            status = tjDecompress2(
                handle, base, UInt(jpeg.count), buffer.baseAddress, width, 0, height,
                Int32(pixelFormat.rawValue), TJFLAG_LIMITSCANS
            )
            let written = status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
            count = written ? buffer.count : 0
        }
        if status == 0 {
            return Output(pixels: pixels, warning: nil)
        }
        guard !pixels.isEmpty else {
            throw ImageError(.badImageData, "TurboJPEG cannot decode the JPEG data: \(errorMessage)")
        }
        return Output(pixels: pixels, warning: errorMessage)
    }

    /// TurboJPEG's description of the last problem.
    private var errorMessage: String {
        guard let message = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: message)
    }
}
