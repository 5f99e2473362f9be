import CPNG
import WebImageCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Decodes the rows of a still PNG held in memory in the shape most photographs take —
/// 8-bit RGB or RGBA, not interlaced, no `tRNS` chunk — with zlib's inflate and a defilter
/// that works a pixel at a time, where libspng undoes the filters a byte at a time (a third
/// of the CPU of a PNG thumbnail went there).
///
/// It only answers for data that libspng decodes without complaint, so that the pixels and
/// errors stay libspng's: the `IDAT` chunks must follow one another with valid CRCs, only an
/// empty `IEND` may follow them (checked before decoding: text or Exif after the image data
/// leaves the whole picture to libspng), the zlib stream (its Adler-32 checked by zlib) must end
/// with the last row, and every filter type must be one of the five. Anything else makes
/// ``forEachRow(in:header:chunkLimit:_:)`` return `false`, and the caller decodes with
/// libspng from the start. The chunks before the first `IDAT` are libspng's to read and
/// check, before this runs.
enum PNGTruecolorRows {
    /// Whether a PNG with `header` (and a `tRNS` chunk when `hasTransparencyChunk`) has the
    /// shape this decoder handles.
    static func canDecode(_ header: spng_ihdr, hasTransparencyChunk: Bool) -> Bool {
        header.bit_depth == 8 && header.interlace_method == 0 && !hasTransparencyChunk
            && (header.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR.rawValue)
                || header.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue))
    }

    /// Calls `body` with each row of the image in `stream`, top to bottom, as RGBA8
    /// (`header.width × 4` bytes, opaque alpha for RGB); the pointer is valid during the call.
    ///
    /// - Parameters:
    ///   - chunkLimit: The largest chunk libspng was told to accept; a larger `IDAT` chunk
    ///     is left to libspng.
    /// - Returns: `false` when the data is not one this decoder answers for (see the type's
    ///   documentation); rows already given must then be discarded.
    static func forEachRow(
        in stream: UnsafeRawBufferPointer,
        header: spng_ihdr,
        chunkLimit: Int,
        _ body: (UnsafeRawPointer) -> Void
    ) -> Bool {
        guard canDecode(header, hasTransparencyChunk: false), imageDataEndsTheStream(stream),
            var chunks = try? PNGChunkReader(stream), let inflater = PNGRowInflater(header: header)
        else { return false }
        var inImageData = false
        while true {
            guard let chunk = try? chunks.next() else { return false }
            if chunk.type != .imageData {
                guard inImageData else { continue }
                // After the image data: an empty IEND with a valid CRC, and nothing more.
                return chunk.type == .end && chunk.data.isEmpty && chunks.isAtEnd && inflater.isComplete
                    && hasValidChecksum(chunk, in: stream)
            }
            inImageData = true
            guard chunk.data.count <= chunkLimit, hasValidChecksum(chunk, in: stream),
                inflater.inflate(UnsafeRawBufferPointer(rebasing: stream[chunk.data]), body)
            else { return false }
        }
    }

    /// ``forEachRow(in:header:chunkLimit:_:)`` for the PNG in `file`, read from its start in
    /// pieces of 64 KiB; the file's position afterwards is anywhere.
    static func forEachRow(
        reading file: UnsafeMutablePointer<FILE>,
        header: spng_ihdr,
        chunkLimit: Int,
        _ body: (UnsafeRawPointer) -> Void
    ) -> Bool {
        let pieceBytes = 1 << 16
        guard canDecode(header, hasTransparencyChunk: false), imageDataEndsTheFile(file),
            fseeko(file, off_t(PNGChunkReader.signature.count), SEEK_SET) == 0, let inflater = PNGRowInflater(header: header)
        else { return false }
        let piece = UnsafeMutableRawPointer.allocate(byteCount: pieceBytes, alignment: 16)
        defer { piece.deallocate() }
        /// The next four bytes of the file, big-endian.
        func readWord() -> UInt32? {
            guard fread(piece, 1, 4, file) == 4 else { return nil }
            return UInt32(bigEndian: piece.loadUnaligned(as: UInt32.self))
        }
        var inImageData = false
        while true {
            guard let length = readWord(), length <= 0x7FFF_FFFF, let rawType = readWord() else { return false }
            let type = PNGChunkType(rawValue: rawType)
            var crc = withUnsafeBytes(of: rawType.bigEndian) { crc32(0, $0.baseAddress!.assumingMemoryBound(to: Bytef.self), 4) }
            if type != .imageData {
                guard inImageData else {
                    guard fseeko(file, off_t(length) + 4, SEEK_CUR) == 0 else { return false }
                    continue
                }
                // After the image data: an empty IEND with a valid CRC, and nothing more.
                return type == .end && length == 0 && readWord() == UInt32(crc) && fgetc(file) == EOF && inflater.isComplete
            }
            inImageData = true
            guard Int(length) <= chunkLimit else { return false }
            var remaining = Int(length)
            while remaining > 0 {
                let count = min(remaining, pieceBytes)
                guard fread(piece, 1, count, file) == count else { return false }
                crc = crc32(crc, piece.assumingMemoryBound(to: Bytef.self), uInt(count))
                guard inflater.inflate(UnsafeRawBufferPointer(start: piece, count: count), body) else { return false }
                remaining -= count
            }
            guard readWord() == UInt32(crc) else { return false }
        }
    }

    /// Whether the chunks of `stream` after its first `IDAT` are more `IDAT` chunks, then
    /// IEND and the end: read before decoding, so that a PNG this decoder would decline at
    /// its end (text or Exif after the image data, as libvips writes) is decoded once, by
    /// libspng, rather than twice. Only the chunk headers are read.
    private static func imageDataEndsTheStream(_ stream: UnsafeRawBufferPointer) -> Bool {
        guard var chunks = try? PNGChunkReader(stream) else { return false }
        var inImageData = false
        while let chunk = try? chunks.next() {
            if chunk.type == .imageData {
                inImageData = true
            } else if inImageData {
                return chunk.type == .end && chunks.isAtEnd
            }
        }
        return false
    }

    /// ``imageDataEndsTheStream(_:)`` for the PNG in `file`, walking its chunk headers
    /// from the start; the file's position afterwards is anywhere.
    private static func imageDataEndsTheFile(_ file: UnsafeMutablePointer<FILE>) -> Bool {
        guard fseeko(file, off_t(PNGChunkReader.signature.count), SEEK_SET) == 0 else { return false }
        var header = (UInt32(0), UInt32(0))
        var inImageData = false
        while fread(&header, 1, 8, file) == 8 {
            let length = UInt32(bigEndian: header.0)
            let type = PNGChunkType(rawValue: UInt32(bigEndian: header.1))
            if type == .imageData {
                inImageData = true
            } else if inImageData {
                return type == .end && length == 0 && fseeko(file, 4, SEEK_CUR) == 0 && fgetc(file) == EOF
            }
            guard length <= 0x7FFF_FFFF, fseeko(file, off_t(length) + 4, SEEK_CUR) == 0 else { return false }
        }
        return false
    }

    /// Whether `chunk`'s stored CRC matches its type and data (zlib's CRC-32).
    private static func hasValidChecksum(_ chunk: PNGChunk, in stream: UnsafeRawBufferPointer) -> Bool {
        let base = stream.baseAddress!.assumingMemoryBound(to: Bytef.self)
        let typed = crc32(0, base.advanced(by: chunk.start + 4), 4)
        let crc = crc32(typed, base.advanced(by: chunk.data.lowerBound), uInt(chunk.data.count))
        return UInt32(crc) == stream.loadBigEndianUInt32(at: chunk.data.upperBound)
    }

    /// Undoes the filter of one row: `filtered` holds the filter type and the filtered bytes
    /// (`channels` a pixel), `above` the previous row's RGBA pixels (zeros above the first
    /// row); writes the row's RGBA pixels into `output`. `false` for an unknown filter type.
    static func defilter(
        _ filtered: UnsafeMutableRawPointer,
        above: UnsafeRawPointer,
        into output: UnsafeMutableRawPointer,
        width: Int,
        channels: Int
    ) -> Bool {
        // Two copies, so that each loop's stride is a constant.
        if channels == 4 {
            return defilter(filtered, above: above, into: output, width: width, stride: 4, alpha: 0)
        }
        return defilter(filtered, above: above, into: output, width: width, stride: 3, alpha: 0xFF00_0000)
    }

    /// ``defilter(_:above:into:width:channels:)`` for pixels `stride` bytes apart; `alpha`
    /// is or-ed into each written pixel (an RGB pixel's fourth byte, read from the next
    /// pixel, becomes opaque alpha). Lanes never mix, so that byte never reaches the others.
    @inline(__always)
    private static func defilter(
        _ filtered: UnsafeMutableRawPointer,
        above: UnsafeRawPointer,
        into output: UnsafeMutableRawPointer,
        width: Int,
        stride: Int,
        alpha: UInt32
    ) -> Bool {
        var raw = UnsafeRawPointer(filtered + 1)
        var up = above
        var out = output
        let end = output + width &* 4
        @inline(__always) func load(_ pointer: UnsafeRawPointer) -> SIMD4<Int16> {
            SIMD4<Int16>(truncatingIfNeeded: pointer.loadUnaligned(as: SIMD4<UInt8>.self))
        }
        @inline(__always) func store(_ value: SIMD4<Int16>) {
            let bytes = SIMD4<UInt8>(truncatingIfNeeded: value)
            out.storeBytes(of: unsafeBitCast(bytes, to: UInt32.self) | alpha, as: UInt32.self)
        }
        var left = SIMD4<Int16>.zero
        var upperLeft = SIMD4<Int16>.zero
        let byte = SIMD4<Int16>(repeating: 0xFF)
        switch filtered.load(as: UInt8.self) {
        case 0:
            while out < end {
                store(load(raw))
                raw += stride
                out += 4
            }
        case 1:
            while out < end {
                left = (load(raw) &+ left) & byte
                store(left)
                raw += stride
                out += 4
            }
        case 2:
            while out < end {
                store(load(raw) &+ load(up))
                raw += stride
                up += 4
                out += 4
            }
        case 3:
            while out < end {
                left = (load(raw) &+ ((left &+ load(up)) &>> 1)) & byte
                store(left)
                raw += stride
                up += 4
                out += 4
            }
        case 4:
            while out < end {
                let above = load(up)
                left = (load(raw) &+ paeth(left: left, up: above, upperLeft: upperLeft)) & byte
                store(left)
                upperLeft = above
                raw += stride
                up += 4
                out += 4
            }
        default:
            return false
        }
        return true
    }

    /// The Paeth predictor of each lane: whichever of left, up and upper-left is nearest
    /// to left + up − upper-left, preferring left, then up, on ties.
    @inline(__always)
    private static func paeth(left a: SIMD4<Int16>, up b: SIMD4<Int16>, upperLeft c: SIMD4<Int16>) -> SIMD4<Int16> {
        let distanceToLeft = magnitude(b &- c)
        let distanceToUp = magnitude(a &- c)
        let distanceToUpperLeft = magnitude(a &+ b &- c &- c)
        let nearest = pointwiseMin(distanceToLeft, pointwiseMin(distanceToUp, distanceToUpperLeft))
        var predictor = c.replacing(with: b, where: distanceToUp .== nearest)
        predictor.replace(with: a, where: distanceToLeft .== nearest)
        return predictor
    }

    @inline(__always)
    private static func magnitude(_ value: SIMD4<Int16>) -> SIMD4<Int16> {
        value.replacing(with: 0 &- value, where: value .< 0)
    }
}
