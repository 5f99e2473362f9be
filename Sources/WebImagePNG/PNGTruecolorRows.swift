import CPNG
import WebImageCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Decodes the rows of a still PNG read from a file in the shape most photographs take —
/// 8-bit RGB or RGBA, not interlaced, no `tRNS` chunk — with zlib's inflate, a piece of the
/// file at a time, and a defilter that works a pixel at a time, where libspng undoes the
/// filters a byte at a time (a third of the CPU of a PNG thumbnail went there).
/// ``PNGInflatedImage`` decodes PNGs held in memory, with the same defilter for this shape.
///
/// It only answers for data that libspng decodes without complaint, so that the pixels and
/// errors stay libspng's: the `IDAT` chunks must follow one another with valid CRCs and
/// nothing but chunks up to IEND may follow them (checked before decoding), the zlib stream
/// (its Adler-32 checked by zlib) must end with the last row, every filter type must be one
/// of the five, and the chunks after the image data must be ones libspng accepts. Anything
/// else makes ``forEachRow(reading:header:options:_:)`` return `false`, and the caller decodes
/// with libspng from the start. The chunks before the first `IDAT` are libspng's to read and
/// check, before this runs; so are the ones after it other than a lone IEND, which libspng
/// reads in a one-pixel stand-in (``libspngAcceptsChunksAround(header:before:after:options:)``).
enum PNGTruecolorRows {
    /// Whether a PNG with `header` (and a `tRNS` chunk when `hasTransparencyChunk`) has the
    /// shape this decoder handles.
    static func canDecode(_ header: spng_ihdr, hasTransparencyChunk: Bool) -> Bool {
        header.bit_depth == 8 && header.interlace_method == 0 && !hasTransparencyChunk
            && (header.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR.rawValue)
                || header.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue))
    }

    /// Calls `body` with each row of the PNG in `file`, read from its start in pieces of
    /// 64 KiB, top to bottom, as RGBA8 (`header.width × 4` bytes, opaque alpha for RGB); the
    /// pointer is valid during the call. The file's position afterwards is anywhere.
    ///
    /// - Parameter options: The limits libspng was given; an `IDAT` chunk over their chunk
    ///   limit is left to libspng, and the chunks after the image data are checked with them.
    /// - Returns: `false` when the data is not one this decoder answers for (see the type's
    ///   documentation); rows already given must then be discarded.
    static func forEachRow(
        reading file: UnsafeMutablePointer<FILE>,
        header: spng_ihdr,
        options: ImageDecodeOptions,
        _ body: (UnsafeRawPointer) -> Void
    ) -> Bool {
        let pieceBytes = 1 << 16
        guard canDecode(header, hasTransparencyChunk: false), let layout = layout(of: file),
            fseeko(file, off_t(layout.imageData), SEEK_SET) == 0, let inflater = PNGRowInflater(header: header)
        else { return false }
        let chunkLimit = max(0, options.maxChunkBytes)
        let piece = UnsafeMutableRawPointer.allocate(byteCount: pieceBytes, alignment: 16)
        defer { piece.deallocate() }
        /// The next four bytes of the file, big-endian.
        func readWord() -> UInt32? {
            guard fread(piece, 1, 4, file) == 4 else { return nil }
            return UInt32(bigEndian: piece.loadUnaligned(as: UInt32.self))
        }
        var offset = layout.imageData
        while offset < layout.afterImageData {
            guard let length = readWord(), Int(length) <= chunkLimit, let rawType = readWord() else { return false }
            var crc = withUnsafeBytes(of: rawType.bigEndian) { crc32(0, $0.baseAddress!.assumingMemoryBound(to: Bytef.self), 4) }
            var remaining = Int(length)
            while remaining > 0 {
                let count = min(remaining, pieceBytes)
                guard fread(piece, 1, count, file) == count else { return false }
                crc = crc32(crc, piece.assumingMemoryBound(to: Bytef.self), uInt(count))
                guard inflater.inflate(UnsafeRawBufferPointer(start: piece, count: count), body) else { return false }
                remaining -= count
            }
            guard readWord() == UInt32(crc) else { return false }
            offset += 12 + Int(length)
        }
        guard inflater.isComplete else { return false }
        // What surrounds the image data, read for libspng's check unless it is a lone IEND.
        let before = layout.imageData - PNGChunkReader.signature.count
        let after = layout.end - layout.afterImageData
        let surroundings = UnsafeMutableRawPointer.allocate(byteCount: before + after, alignment: 16)
        defer { surroundings.deallocate() }
        guard fseeko(file, off_t(layout.afterImageData), SEEK_SET) == 0, fread(surroundings + before, 1, after, file) == after else {
            return false
        }
        let trailing = UnsafeRawBufferPointer(start: surroundings + before, count: after)
        if after == 12, trailing.loadBigEndianUInt32(at: 0) == 0, trailing.loadBigEndianUInt32(at: 4) == PNGChunkType.end.rawValue {
            return trailing.loadBigEndianUInt32(at: 8) == UInt32(crc32(0, surroundings.advanced(by: before + 4).assumingMemoryBound(to: Bytef.self), 4))
        }
        guard fseeko(file, off_t(PNGChunkReader.signature.count), SEEK_SET) == 0, fread(surroundings, 1, before, file) == before else {
            return false
        }
        return libspngAcceptsChunksAround(
            header: header, before: UnsafeRawBufferPointer(start: surroundings, count: before), after: trailing, options: options)
    }

    /// Where a PNG's image data lies: the offset of its first `IDAT` chunk, of the first
    /// chunk after its last one, and of the data's end.
    typealias Layout = (imageData: Int, afterImageData: Int, end: Int)

    /// The most bytes of chunks around the image data that libspng is given to check in a
    /// stand-in; a PNG with more is left to libspng whole.
    static let surroundingsLimit = 1 << 20

    /// The layout of `stream` when its `IDAT` chunks follow one another and at least one
    /// whole chunk follows them, with no more than ``surroundingsLimit`` bytes around them;
    /// `nil` otherwise. Read before decoding (chunk headers only), so that a PNG this decoder
    /// would decline at its end is decoded once, by libspng, rather than twice.
    static func layout(of stream: UnsafeRawBufferPointer) -> Layout? {
        guard var chunks = try? PNGChunkReader(stream) else { return nil }
        var imageData: Int?
        var afterImageData: Int?
        while let chunk = try? chunks.next() {
            if chunk.type == .imageData {
                guard afterImageData == nil else { return nil }
                imageData = imageData ?? chunk.start
            } else if imageData != nil, afterImageData == nil {
                afterImageData = chunk.start
            }
        }
        guard chunks.isAtEnd, let imageData, let afterImageData else { return nil }
        return checkedLayout((imageData, afterImageData, stream.count))
    }

    /// ``layout(of:)-(UnsafeRawBufferPointer)`` for the PNG in `file`, walking its chunk
    /// headers from the start; the file's position afterwards is anywhere.
    private static func layout(of file: UnsafeMutablePointer<FILE>) -> Layout? {
        guard fseeko(file, off_t(PNGChunkReader.signature.count), SEEK_SET) == 0, fseeko(file, 0, SEEK_END) == 0 else { return nil }
        let end = Int(ftello(file))
        var offset = PNGChunkReader.signature.count
        var imageData: Int?
        var afterImageData: Int?
        var header = (UInt32(0), UInt32(0))
        while offset < end {
            guard fseeko(file, off_t(offset), SEEK_SET) == 0, fread(&header, 1, 8, file) == 8 else { return nil }
            let length = Int(UInt32(bigEndian: header.0))
            guard length <= 0x7FFF_FFFF, end - offset - 12 >= length else { return nil }
            if PNGChunkType(rawValue: UInt32(bigEndian: header.1)) == .imageData {
                guard afterImageData == nil else { return nil }
                imageData = imageData ?? offset
            } else if imageData != nil, afterImageData == nil {
                afterImageData = offset
            }
            offset += 12 + length
        }
        guard let imageData, let afterImageData else { return nil }
        return checkedLayout((imageData, afterImageData, end))
    }

    /// `layout`, unless the chunks around its image data pass ``surroundingsLimit``.
    private static func checkedLayout(_ layout: Layout) -> Layout? {
        let surroundings = layout.imageData - PNGChunkReader.signature.count + layout.end - layout.afterImageData
        return surroundings <= surroundingsLimit ? layout : nil
    }

    /// Whether libspng accepts the chunks before and after a PNG's image data, read in a
    /// stand-in PNG: `header` made one pixel, the chunks of `before` after its IHDR, one
    /// pixel's image data, then `after`. Duplicates, positions, text and Exif are checked
    /// against the same chunks, with the same limits, as in the real picture.
    static func libspngAcceptsChunksAround(
        header: spng_ihdr,
        before: UnsafeRawBufferPointer,
        after: UnsafeRawBufferPointer,
        options: ImageDecodeOptions
    ) -> Bool {
        let headerChunkBytes = 25
        guard before.count >= headerChunkBytes else { return false }
        // One row of one pixel of zeros, filter type 0, as a zlib stream of one stored block:
        // header, block (final, stored) with its length and the length's complement, the
        // bytes, and their Adler-32 (1 + 256 × count for zeros).
        let channels: Int =
            switch header.color_type {
            case 2: 3
            case 4: 2
            case 6: 4
            default: 1
            }
        let rowBytes = UInt8(1 + (channels * Int(header.bit_depth) + 7) / 8)
        let zeros = [UInt8](repeating: 0, count: Int(rowBytes))
        let imageData: [UInt8] = [0x78, 0x01, 0x01, rowBytes, 0, ~rowBytes, 0xFF] + zeros + [0, rowBytes, 0, 1]
        var onePixel = header
        onePixel.width = 1
        onePixel.height = 1
        var standIn = PNGChunkWriter(capacity: before.count + after.count + 64)
        var fields: [UInt8] = []
        for word in [onePixel.width, onePixel.height] { withUnsafeBytes(of: word.bigEndian) { fields.append(contentsOf: $0) } }
        fields += [onePixel.bit_depth, onePixel.color_type, onePixel.compression_method, onePixel.filter_method, onePixel.interlace_method]
        standIn.append(.header, fields)
        standIn.appendVerbatim(UnsafeRawBufferPointer(rebasing: before[headerChunkBytes...]))
        standIn.append(.imageData, imageData)
        standIn.appendVerbatim(after)
        return standIn.bytes.withUnsafeBytes { bytes in
            guard let context = try? SPNGContext.decoder(for: bytes, options: options) else { return false }
            var pixel: UInt32 = 0
            let status = spng_decode_image(context.handle, &pixel, 4, Int32(SPNG_FMT_RGBA8.rawValue), Int32(SPNG_DECODE_TRNS.rawValue))
            return status == 0 && (try? context.checkTrailingChunks()) != nil
        }
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
