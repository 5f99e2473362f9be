import CJPEG
import CJPEGShim
import Foundation
import WebImageCore

/// Turns or mirrors a JPEG without decoding its pixels: the DCT coefficients are moved,
/// so the result is the turned picture with no second round of compression loss. A picture
/// of whole MCUs is turned by the shim's `cjpeg_turn_coefficients`, which holds one
/// whole-image coefficient array instead of `tjTransform`'s two and writes the same bytes;
/// the others by libjpeg-turbo's `tjTransform`.
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
        guard try checked.get() else { return nil }
        switch turnedInPlace(data, to: orientation, maxMemory: options.maxTotalBytes) {
        case .turned(let turned): return turned
        case .failed: return nil
        case .declined: break
        }
        guard let handle = tjInitTransform() else { return nil }
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

    /// What ``turnedInPlace(_:to:maxMemory:)`` made of a JPEG.
    private enum InPlaceTurn {
        /// The turned JPEG.
        case turned(Data)
        /// Not made here: the picture is not whole MCUs, or libjpeg warned about the data.
        case declined
        /// libjpeg failed on the data or ran out of its memory.
        case failed
    }

    /// The JPEG in `data` turned by the shim's `cjpeg_turn_coefficients`, which reads the
    /// source's coefficients whole, as `tjTransform` does, but makes each block of the
    /// result as the encoder asks for it instead of filling a second whole-image array: a
    /// quarter turn of a 20 MP 4:4:4 photograph holds 117 MB of coefficients, not 234. It
    /// takes pictures whose width and height are whole MCUs; the others go to `tjTransform`.
    /// The result is the one `tjTransform` writes, byte for byte.
    private static func turnedInPlace(_ data: Data, to orientation: ImageOrientation, maxMemory: Int) -> InPlaceTurn {
        guard let turn = turnCode(for: orientation) else { return .declined }
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        defer { free(output) }
        let status = data.withUnsafeBytes { bytes in
            cjpeg_turn_coefficients(bytes.baseAddress!, bytes.count, turn, UInt64(max(0, maxMemory)), &output, &outputSize)
        }
        switch status {
        case 0: return output.map { .turned(Data(bytes: $0, count: Int(outputSize))) } ?? .failed
        case 1: return .declined
        default: return .failed
        }
    }

    /// The shim's turn for `orientation`; `nil` for `.up`, which moves nothing.
    private static func turnCode(for orientation: ImageOrientation) -> cjpeg_turn? {
        switch orientation {
        case .up: nil
        case .upMirrored: CJPEG_TURN_MIRROR_HORIZONTALLY
        case .down: CJPEG_TURN_HALF
        case .downMirrored: CJPEG_TURN_MIRROR_VERTICALLY
        case .leftMirrored: CJPEG_TURN_TRANSPOSE
        case .right: CJPEG_TURN_CLOCKWISE
        case .rightMirrored: CJPEG_TURN_TRANSVERSE
        case .left: CJPEG_TURN_COUNTERCLOCKWISE
        }
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
