import CJPEG
import CJPEGShim
import Foundation
import WebImageCore

/// Turns or mirrors a JPEG without decoding its pixels: libjpeg-turbo's `tjTransform`
/// moves the DCT coefficients, so the result decodes to exactly the turned pixels of the
/// source, with no second round of compression loss.
///
/// Only *perfect* transforms are made (`TJXOPT_PERFECT`): when the operation would move a
/// partial MCU block (a right or bottom edge that is not a multiple of the MCU, 8 or 16
/// pixels, on a side the operation moves), libjpeg-turbo can neither keep nor mirror that
/// edge, and trimming it (`TJXOPT_TRIM`) would change the size; ``transform(_:to:options:)``
/// then returns `nil` and the caller decodes, turns and re-encodes instead. Every marker
/// of the source (EXIF, ICC, comments) is dropped (`TJXOPT_COPYNONE`), as a re-encode
/// drops them. Any warning from libjpeg-turbo (truncated or damaged data) also gives
/// `nil`, so that the caller's decode reports it as it would without this path.
package enum JPEGLosslessTransform {
    /// The JPEG in `data` with `orientation` applied to its stored pixels, or `nil` when
    /// the transform cannot be made exactly (a partial MCU block would move, the file
    /// carries an EXIF or XMP orientation of its own, or its samples are not 8-bit).
    ///
    /// - Throws: ``ImageError/Code/imageTooLarge`` past the limits of `options` (the
    ///   coefficients of the whole image are held) or past the decoder's scan limit
    ///   (`CJPEG_MAX_SCANS`, 500), ``ImageError/Code/badImageData`` for a damaged header.
    package static func transform(
        _ data: Data,
        to orientation: ImageOrientation,
        options: ImageDecodeOptions
    ) throws(ImageError) -> Data? {
        let checked = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            Result { () throws(ImageError) -> Bool in
                let metadata = JPEGMetadata(reading: bytes)
                guard metadata.orientation == .up, metadata.precision == 8 else { return false }
                // Every scan is read into the coefficients, a pass over all of them each:
                // the decoder's scan limit holds here too.
                let maximumScans = Int(CJPEG_MAX_SCANS)
                guard JPEGScanCounter.scanCount(in: bytes, upTo: maximumScans) <= maximumScans else {
                    throw ImageError(.imageTooLarge, "the JPEG has more than \(maximumScans) scans")
                }
                let header = try JPEGDecompressor(bytes, maxMemory: options.maxTotalBytes).readHeader()
                try options.checkAllocation(header.size)
                guard header.coefficientBytes <= options.maxTotalBytes else {
                    throw ImageError(
                        .imageTooLarge,
                        "turning this JPEG of \(header.size) keeps \(header.coefficientBytes) bytes of coefficients, "
                            + "over the limit of \(options.maxTotalBytes) bytes")
                }
                return true
            }
        }
        guard try checked.get(), let handle = tjInitTransform() else { return nil }
        defer { tjDestroy(handle) }
        var operation = tjtransform()
        operation.op = Int32(bitPattern: operationCode(for: orientation).rawValue)
        operation.options = TJXOPT_PERFECT | TJXOPT_COPYNONE
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        defer { tjFree(output) }
        let status = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int32 in
            tjTransform(
                handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), 1,
                &output, &outputSize, &operation, TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)
        }
        guard status == 0, let output, outputSize > 0 else { return nil }
        return Data(bytes: output, count: Int(outputSize))
    }

    /// TurboJPEG's operation for `orientation`.
    private static func operationCode(for orientation: ImageOrientation) -> TJXOP {
        switch orientation {
        case .up: TJXOP_NONE
        case .upMirrored: TJXOP_HFLIP
        case .down: TJXOP_ROT180
        case .downMirrored: TJXOP_VFLIP
        case .leftMirrored: TJXOP_TRANSPOSE
        case .right: TJXOP_ROT90
        case .rightMirrored: TJXOP_TRANSVERSE
        case .left: TJXOP_ROT270
        }
    }
}
