import CJPEGShim
#if canImport(Glibc)
import Glibc
#endif
import WebImageCore

/// A libjpeg decompressor over one JPEG in memory or in a file, driven through the project's C shim
/// (`CJPEGShim`), destroyed when its owner goes out of scope.
///
/// The classic API is used instead of TurboJPEG's whole-image calls because it decodes
/// every sampling factor, decodes in row groups (so a caller can stream), counts every
/// warning (so truncation is seen even after other damage), and lets a memory limit
/// bound the whole-image coefficient buffer of progressive files. The bytes given to
/// ``init(_:maxMemory:)`` must stay valid for the decompressor's whole life.
package struct JPEGDecompressor: ~Copyable {
    /// What the JPEG header declares.
    package struct Header: Sendable, Hashable {
        /// The stored size (before any orientation).
        package var size: PixelSize
        /// Whether the data holds ink (CMYK or YCCK), which is read out as CMYK.
        package var isCMYK: Bool
        /// Whether the file has several scans (progressive, or components in separate
        /// scans): libjpeg then keeps all DCT coefficients of the full-size image while
        /// decoding, whatever the output scale.
        package var hasMultipleScans: Bool
        /// The size of that whole-image coefficient buffer.
        package var coefficientBytes: Int

        /// The memory libjpeg needs besides the output rows: the coefficient buffer of a
        /// multi-scan file, nothing worth counting for a single-scan one.
        package var workingBytes: Int {
            hasMultipleScans ? coefficientBytes : 0
        }
    }

    private let handle: OpaquePointer

    /// Creates a decompressor over `jpeg`, whose whole-image buffers may take at most
    /// `maxMemory` bytes (libjpeg fails the decode past that).
    package init(_ jpeg: UnsafeRawBufferPointer, maxMemory: Int) throws(ImageError) {
        guard let base = jpeg.baseAddress, jpeg.count > 0 else {
            throw ImageError(.emptyData, "the JPEG data is empty")
        }
        guard let handle = cjpeg_decoder_create(base, jpeg.count, UInt64(max(0, maxMemory))) else {
            throw ImageError(.imageTooLarge, "libjpeg could not allocate a decompressor")
        }
        self.handle = handle
    }

    /// Creates a decompressor reading the JPEG from `file`, from its current position, a
    /// buffer at a time (libjpeg's stdio source), so the file is never held whole; `file`
    /// must stay open for the decompressor's whole life.
    package init(reading file: UnsafeMutablePointer<FILE>, maxMemory: Int) throws(ImageError) {
        guard let handle = cjpeg_decoder_create_reading(file, UInt64(max(0, maxMemory))) else {
            throw ImageError(.imageTooLarge, "libjpeg could not allocate a decompressor")
        }
        self.handle = handle
    }

    deinit {
        cjpeg_decoder_destroy(handle)
    }

    /// Reads the markers up to the first scan.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` with libjpeg's message when the header
    ///   is damaged or incomplete.
    package func readHeader() throws(ImageError) -> Header {
        var header = cjpeg_header()
        guard cjpeg_decoder_read_header(handle, &header) == 0, header.width > 0, header.height > 0 else {
            throw ImageError(.badImageData, "libjpeg cannot read the JPEG header: \(message)")
        }
        return Header(
            size: PixelSize(width: Int(header.width), height: Int(header.height)),
            isCMYK: header.is_ink != 0,
            hasMultipleScans: header.has_multiple_scans != 0,
            coefficientBytes: Int(clamping: header.coefficient_bytes)
        )
    }

    /// Starts decompressing at `scale` into rows of `pixels` and returns the output size.
    /// A progressive file's scans are all read here.
    package func start(scale: JPEGScale, pixels: JPEGPixelLayout) throws(ImageError) -> PixelSize {
        var width: UInt32 = 0, height: UInt32 = 0
        let status = cjpeg_decoder_start(
            handle, UInt32(scale.numerator), UInt32(scale.denominator), pixels.shimValue, &width, &height
        )
        guard status == 0 else { throw failure("start decoding") }
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// Decodes up to `count` rows into `rows`, `stride` bytes apart, and returns how many
    /// it wrote (fewer only at the end of the image).
    package func readRows(into rows: UnsafeMutableRawPointer, stride: Int, count: Int) throws(ImageError) -> Int {
        var read: UInt32 = 0
        let status = cjpeg_decoder_read_rows(
            handle, rows.assumingMemoryBound(to: UInt8.self), stride, UInt32(clamping: count), &read
        )
        guard status == 0 else { throw failure("decode the JPEG data") }
        return Int(read)
    }

    /// Reads the rest of the data up to the end marker, after the last row.
    package func finish() throws(ImageError) {
        guard cjpeg_decoder_finish(handle) == 0 else { throw failure("finish the JPEG data") }
    }

    /// How many warnings (damaged or missing data libjpeg made up for) it gave so far.
    package var warningCount: Int {
        Int(cjpeg_decoder_warning_count(handle))
    }

    /// Whether any warning said the data ended early: the file is truncated, or a scan
    /// was cut short, and the rows past that point are made up.
    package var dataEndedEarly: Bool {
        cjpeg_decoder_data_ended_early(handle) != 0
    }

    /// libjpeg's fatal error, else its first warning.
    package var message: String {
        String(cString: cjpeg_decoder_message(handle))
    }

    /// The error for a fatal libjpeg failure while trying to `action`: running out of
    /// the memory limit is ``ImageError/Code/imageTooLarge``, anything else bad data.
    private func failure(_ action: String) -> ImageError {
        let reason = message
        let code: ImageError.Code =
            reason.contains("Backing store") || reason.contains("Insufficient memory")
            ? .imageTooLarge : .badImageData
        return ImageError(code, "libjpeg cannot \(action): \(reason)")
    }
}
