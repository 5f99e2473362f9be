import CDeflate
import CPNG
import WebImageCore

/// A still, non-interlaced PNG held whole in memory whose image data is inflated in one
/// call by libdeflate (about twice as fast as zlib's inflate, which libspng uses), then
/// unfiltered and expanded row by row to the coder's pixel format — RGBA8, or RGBA16 in
/// host byte order for 16-bit sources, `tRNS` applied — giving the pixels libspng gives.
///
/// Every bit depth and colour type is read. Interlaced (Adam7) pictures, streamed files
/// and partial data stay with libspng (and ``PNGTruecolorRows`` for files); so do APNG
/// animations, except that each of their frames is decoded as a still PNG in memory.
///
/// It only answers for data that libspng decodes without complaint, so that the pixels and
/// errors stay libspng's: the chunks before the image data have been read and checked by
/// libspng (the context passed in, which also gives the palette and `tRNS`); the `IDAT`
/// chunks must follow one another, each within the chunk limit with a valid CRC; the zlib
/// stream must have no preset dictionary and a window that libspng's zlib accepts for the
/// distances in it; it must inflate, Adler-32 checked, to exactly height × (1 + row bytes)
/// and end with the last `IDAT` chunk; every filter type must be one of the five; and the
/// chunks after the image data must be ones libspng accepts
/// (``PNGTruecolorRows/libspngAcceptsChunksAround(header:before:after:options:)``). Anything
/// else makes the initialiser (or ``decodeRows(into:_:)``) answer `nil` (`false`), and the
/// caller decodes with libspng from the start, which gives its own error for corrupt data.
///
/// Memory: the inflated image data, height × (1 + row bytes), which for every colour type
/// is at most the decoded picture's bytes plus one byte a row, so it is bounded by the
/// allocation check the caller makes before, and (while inflating, for a picture of more
/// than one `IDAT` chunk) a copy of the compressed data, bounded by the input. A caller that
/// decodes the whole picture can have the data inflated into the end of the picture's own
/// buffer instead (``init(stream:header:context:options:inflatingInto:)``): every row is
/// then written before the data it overwrites is read, and no second picture-sized buffer is
/// held.
final class PNGInflatedImage {
    private let width: Int
    private let height: Int
    private let colorType: UInt8
    private let bitDepth: Int
    /// The bytes of one row without its filter-type byte.
    private let rowBytes: Int
    /// How many bytes before a byte lies the one the filters predict it from (at least 1).
    private let filterDistance: Int
    /// The inflated image data: each row's filter type, then its bytes; then ``slack`` bytes.
    private let filtered: UnsafeMutableRawPointer
    /// Whether ``filtered`` was allocated here (else it is the end of the caller's buffer).
    private let ownsFiltered: Bool
    /// Zeros, as long as the longest row, above the first row.
    private let zeros: UnsafeMutableRawPointer
    /// The `tRNS` colour key of a grey or truecolour picture, as stored (16 bits a sample).
    private let colorKey: (gray: UInt16, red: UInt16, green: UInt16, blue: UInt16)?
    /// A palette picture's 256 RGBA8 pixels, in memory order, `tRNS` alpha applied; entries
    /// the palette lacks are opaque black, as libspng makes them.
    private let palette: [UInt32]

    /// Bytes past the image data that may be read: an RGB row's last pixel is read as four.
    private static let slack = 16

    /// The bytes a buffer for the decoded picture needs beyond its `height` rows of
    /// `decodedRowBytes` each for the image data to be inflated into its end
    /// (``init(stream:header:context:options:inflatingInto:)``): a row, a byte a row and
    /// ``slack``. With them, row `y` of the picture ends where the inflated row `y` starts
    /// or before, for every colour type (an inflated row is at most one byte longer than a
    /// decoded one), so writing it overwrites only inflated rows already read.
    static func roomToInflateInPlace(height: Int, decodedRowBytes: Int) -> Int {
        decodedRowBytes + height + slack
    }

    /// The image data of the PNG in `stream`, inflated; `nil` when it is not one this type
    /// answers for (see the type's documentation).
    ///
    /// - Parameters:
    ///   - header: The header `context` read.
    ///   - context: A libspng decoder over `stream` that has read the chunks before the
    ///     image data.
    ///   - options: The limits `context` was given.
    ///   - buffer: The buffer ``decodeRows(into:_:)`` writes the whole picture into, from
    ///     its start, at least ``roomToInflateInPlace(height:decodedRowBytes:)`` bytes longer
    ///     than the picture: the image data is inflated into its end, and this type then
    ///     must not outlive it. `nil` (or a buffer too short for the image data) inflates
    ///     into memory of this type's own.
    init?(
        stream: UnsafeRawBufferPointer, header: spng_ihdr, context: SPNGContext, options: ImageDecodeOptions,
        inflatingInto buffer: UnsafeMutableRawBufferPointer? = nil
    ) {
        guard header.interlace_method == 0, header.compression_method == 0, header.filter_method == 0,
            let channels = Self.channels(ofColorType: header.color_type),
            let layout = PNGTruecolorRows.layout(of: stream)
        else { return nil }
        width = Int(header.width)
        height = Int(header.height)
        colorType = header.color_type
        bitDepth = Int(header.bit_depth)
        let bitsPerPixel = channels * bitDepth
        rowBytes = (width * bitsPerPixel + 7) / 8
        filterDistance = max(1, bitsPerPixel / 8)
        let (inflatedBytes, overflow) = height.multipliedReportingOverflow(by: 1 + rowBytes)
        guard !overflow, inflatedBytes <= Int.max - Self.slack,
            let (key, palette) = Self.transparencyAndPalette(of: context, header: header)
        else { return nil }
        colorKey = key
        self.palette = palette
        guard let data = Self.imageData(in: stream, from: layout.imageData, to: layout.afterImageData, chunkLimit: max(0, options.maxChunkBytes))
        else { return nil }
        defer { data.copy?.deallocate() }
        guard Self.windowSuffices(data.bytes, for: inflatedBytes),
            Self.chunksAfterImageDataAreAccepted(in: stream, layout: layout, header: header, options: options)
        else { return nil }
        let inflated: UnsafeMutableRawPointer
        if let buffer, let start = buffer.baseAddress, buffer.count >= inflatedBytes + Self.slack {
            inflated = start + (buffer.count - inflatedBytes - Self.slack)
            ownsFiltered = false
        } else {
            inflated = .allocate(byteCount: inflatedBytes + Self.slack, alignment: 16)
            ownsFiltered = true
        }
        guard Self.inflate(data.bytes, into: inflated, count: inflatedBytes) else {
            if ownsFiltered { inflated.deallocate() }
            return nil
        }
        (inflated + inflatedBytes).initializeMemory(as: UInt8.self, repeating: 0, count: Self.slack)
        filtered = inflated
        let longestRow = max(rowBytes, width * (bitDepth == 16 ? 8 : 4))
        zeros = .allocate(byteCount: longestRow + Self.slack, alignment: 16)
        zeros.initializeMemory(as: UInt8.self, repeating: 0, count: longestRow + Self.slack)
    }

    deinit {
        if ownsFiltered { filtered.deallocate() }
        zeros.deallocate()
    }

    /// Unfilters and expands every row, top to bottom, into `destination(row)` (width × 4
    /// bytes, or width × 8 for a 16-bit picture), then calls `completed` with it. Each
    /// destination must still hold its row when the next one is written: an 8-bit RGB or
    /// RGBA row is unfiltered against the row written before it.
    ///
    /// - Returns: `false` at a row whose filter type is not one of the five (rows already
    ///   written must then be discarded).
    func decodeRows(into destination: (Int) -> UnsafeMutableRawPointer, _ completed: (UnsafeRawPointer) -> Void) -> Bool {
        let truecolor8 = bitDepth == 8 && (colorType == 2 || colorType == 6)
        var above = UnsafeRawPointer(zeros)
        for row in 0..<height {
            let line = filtered + row * (1 + rowBytes)
            let output = destination(row)
            if truecolor8 {
                guard PNGTruecolorRows.defilter(line, above: above, into: output, width: width, channels: colorType == 6 ? 4 : 3) else {
                    return false
                }
                if let colorKey { applyColorKey8(colorKey, to: output) }
                above = UnsafeRawPointer(output)
            } else {
                // The previous row's bytes, after its filter type.
                let previous = row == 0 ? UnsafeRawPointer(zeros) : UnsafeRawPointer(line - rowBytes)
                guard Self.unfilter(line, above: previous, count: rowBytes, distance: filterDistance) else { return false }
                expand(line + 1, into: output)
            }
            completed(output)
        }
        return true
    }

    // MARK: - Reading the chunks

    /// The samples a pixel of `colorType` has; `nil` for a colour type PNG does not define.
    private static func channels(ofColorType colorType: UInt8) -> Int? {
        switch colorType {
        case 0, 3: 1
        case 4: 2
        case 2: 3
        case 6: 4
        default: nil
        }
    }

    /// The `tRNS` colour key and the palette table as libspng read them; `nil` when libspng
    /// answers an error for either.
    private static func transparencyAndPalette(
        of context: SPNGContext,
        header: spng_ihdr
    ) -> (key: (gray: UInt16, red: UInt16, green: UInt16, blue: UInt16)?, palette: [UInt32])? {
        var transparency = spng_trns()
        let status = spng_get_trns(context.handle, &transparency)
        let hasTransparency = status == 0
        guard hasTransparency || status == Int32(SPNG_ECHUNKAVAIL.rawValue) else { return nil }
        guard header.color_type == 3 else {
            let key = hasTransparency ? (transparency.gray, transparency.red, transparency.green, transparency.blue) : nil
            return (key, [])
        }
        var plte = spng_plte()
        guard spng_get_plte(context.handle, &plte) == 0 else { return nil }
        let alphaCount = hasTransparency ? Int(transparency.n_type3_entries) : 0
        let entryCount = Int(plte.n_entries)
        let table = withUnsafeBytes(of: plte.entries) { entries in
            withUnsafeBytes(of: transparency.type3_alpha) { alphas in
                (0..<256).map { index -> UInt32 in
                    let alpha = UInt32(index < alphaCount ? alphas[index] : 0xFF) << 24
                    guard index < entryCount else { return alpha.littleEndian }
                    let red = UInt32(entries[index * 4]), green = UInt32(entries[index * 4 + 1]), blue = UInt32(entries[index * 4 + 2])
                    return (red | green << 8 | blue << 16 | alpha).littleEndian
                }
            }
        }
        return (nil, table)
    }

    /// The compressed image data: the data of the `IDAT` chunks from offset `start` to
    /// `end` of `stream`, a slice of it for one chunk and a copy for several; `nil` when a
    /// chunk is over `chunkLimit` (left to libspng, which refuses it) or its CRC is wrong.
    /// The caller deallocates `copy`.
    private static func imageData(
        in stream: UnsafeRawBufferPointer,
        from start: Int,
        to end: Int,
        chunkLimit: Int
    ) -> (bytes: UnsafeRawBufferPointer, copy: UnsafeMutableRawBufferPointer?)? {
        var ranges: [Range<Int>] = []
        var total = 0
        var offset = start
        while offset < end {
            let length = Int(stream.loadBigEndianUInt32(at: offset))
            let data = (offset + 8)..<(offset + 8 + length)
            guard length <= chunkLimit,
                libdeflate_crc32(0, stream.baseAddress! + offset + 4, 4 + length) == stream.loadBigEndianUInt32(at: data.upperBound)
            else { return nil }
            ranges.append(data)
            total += length
            offset = data.upperBound + 4
        }
        guard ranges.count > 1 else { return ranges.first.map { (UnsafeRawBufferPointer(rebasing: stream[$0]), nil) } }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, total), alignment: 16)
        var filled = 0
        for range in ranges {
            (copy.baseAddress! + filled).copyMemory(from: stream.baseAddress! + range.lowerBound, byteCount: range.count)
            filled += range.count
        }
        return (UnsafeRawBufferPointer(rebasing: copy[0..<total]), copy)
    }

    /// Whether the zlib stream `data` declares deflate with no preset dictionary and a
    /// window that every distance valid for `inflatedBytes` of output fits: zlib (libspng's
    /// inflater) keeps only the declared window between the calls libspng makes, a row at a
    /// time, where libdeflate sees the whole output.
    private static func windowSuffices(_ data: UnsafeRawBufferPointer, for inflatedBytes: Int) -> Bool {
        guard data.count >= 2 else { return false }
        let method = data[0] & 0x0F, windowLog = Int(data[0] >> 4) + 8, hasDictionary = data[1] & 0x20 != 0
        return method == 8 && !hasDictionary && windowLog <= 15 && (windowLog == 15 || 1 << windowLog >= inflatedBytes)
    }

    /// Inflates the zlib stream `data` into `count` bytes at `output`: `true` when it
    /// inflates without error, its Adler-32 matches, it fills exactly `count` bytes and it
    /// ends with the data.
    private static func inflate(_ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer, count: Int) -> Bool {
        guard let decompressor = libdeflate_alloc_decompressor() else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        var read = 0
        var written = 0
        let result = libdeflate_zlib_decompress_ex(decompressor, data.baseAddress, data.count, output, count, &read, &written)
        return result == LIBDEFLATE_SUCCESS && read == data.count && written == count
    }

    /// Whether the chunks after the image data are a lone, valid IEND or ones libspng
    /// accepts with the chunks before the image data.
    private static func chunksAfterImageDataAreAccepted(
        in stream: UnsafeRawBufferPointer,
        layout: PNGTruecolorRows.Layout,
        header: spng_ihdr,
        options: ImageDecodeOptions
    ) -> Bool {
        let after = UnsafeRawBufferPointer(rebasing: stream[layout.afterImageData...])
        if after.count == 12, after.loadBigEndianUInt32(at: 0) == 0, after.loadBigEndianUInt32(at: 4) == PNGChunkType.end.rawValue {
            return libdeflate_crc32(0, after.baseAddress! + 4, 4) == after.loadBigEndianUInt32(at: 8)
        }
        return PNGTruecolorRows.libspngAcceptsChunksAround(
            header: header,
            before: UnsafeRawBufferPointer(rebasing: stream[PNGChunkReader.signature.count..<layout.imageData]),
            after: after,
            options: options)
    }

    // MARK: - Rows

    /// Makes the pixels of an 8-bit RGB row at `output` (RGBA8) that match `key` transparent;
    /// libspng compares each sample with the low byte of the key's.
    private func applyColorKey8(_ key: (gray: UInt16, red: UInt16, green: UInt16, blue: UInt16), to output: UnsafeMutableRawPointer) {
        let wanted = (UInt32(key.red & 0xFF) | UInt32(key.green & 0xFF) << 8 | UInt32(key.blue & 0xFF) << 16).littleEndian
        let colour = UInt32(0x00FF_FFFF).littleEndian
        var pixel = output
        let end = output + width * 4
        while pixel < end {
            let value = pixel.load(as: UInt32.self)
            if value & colour == wanted { pixel.storeBytes(of: value & colour, as: UInt32.self) }
            pixel += 4
        }
    }

    /// Undoes the filter of one row in place: `line` holds the filter type and `count`
    /// filtered bytes, `above` the previous row's unfiltered bytes (zeros above the first).
    /// `false` for an unknown filter type.
    private static func unfilter(_ line: UnsafeMutableRawPointer, above: UnsafeRawPointer, count: Int, distance: Int) -> Bool {
        let row = (line + 1).assumingMemoryBound(to: UInt8.self)
        let up = above.assumingMemoryBound(to: UInt8.self)
        let first = min(distance, count)
        switch line.load(as: UInt8.self) {
        case 0:
            break
        case 1:
            var index = first
            while index < count {
                row[index] &+= row[index &- distance]
                index &+= 1
            }
        case 2:
            var index = 0
            while index < count {
                row[index] &+= up[index]
                index &+= 1
            }
        case 3:
            var index = 0
            while index < first {
                row[index] &+= up[index] >> 1
                index &+= 1
            }
            while index < count {
                row[index] &+= UInt8(truncatingIfNeeded: (UInt16(row[index &- distance]) &+ UInt16(up[index])) >> 1)
                index &+= 1
            }
        case 4:
            var index = 0
            while index < first {
                row[index] &+= up[index]
                index &+= 1
            }
            while index < count {
                row[index] &+= paeth(left: row[index &- distance], up: up[index], upperLeft: up[index &- distance])
                index &+= 1
            }
        default:
            return false
        }
        return true
    }

    /// The Paeth predictor: whichever of left, up and upper-left is nearest to
    /// left + up − upper-left, preferring left, then up, on ties.
    @inline(__always)
    private static func paeth(left: UInt8, up: UInt8, upperLeft: UInt8) -> UInt8 {
        let a = Int(left), b = Int(up), c = Int(upperLeft)
        let toLeft = abs(b &- c), toUp = abs(a &- c), toUpperLeft = abs(a &+ b &- c &- c)
        if toLeft <= toUp, toLeft <= toUpperLeft { return left }
        return toUp <= toUpperLeft ? up : upperLeft
    }

    /// Expands the unfiltered bytes of a row that is not 8-bit RGB or RGBA at `raw` into
    /// `output`: RGBA8, grey samples of fewer bits scaled by repeating their bits, or RGBA16
    /// in host byte order for 16-bit samples; a matching colour key makes a pixel transparent.
    private func expand(_ raw: UnsafeMutableRawPointer, into output: UnsafeMutableRawPointer) {
        let source = UnsafePointer(raw.assumingMemoryBound(to: UInt8.self))
        if bitDepth == 16 {
            expand16(source, into: output.assumingMemoryBound(to: UInt16.self))
            return
        }
        let pixels = output.assumingMemoryBound(to: UInt32.self)
        switch colorType {
        case 3:
            palette.withUnsafeBufferPointer { table in
                let entries = table.baseAddress!
                forEachSample(source) { x, index in pixels[x] = entries[Int(index)] }
            }
        case 0:
            let scale = UInt32(255 / ((1 << bitDepth) - 1))
            let key = colorKey.map { Int($0.gray) } ?? -1
            forEachSample(source) { x, sample in
                let gray = UInt32(sample) &* scale
                let alpha: UInt32 = Int(sample) == key ? 0 : 0xFF00_0000
                pixels[x] = (gray | gray << 8 | gray << 16 | alpha).littleEndian
            }
        default:  // 4: 8-bit grey and alpha
            var x = 0
            while x < width {
                let gray = UInt32(source[2 &* x]), alpha = UInt32(source[2 &* x &+ 1])
                pixels[x] = (gray | gray << 8 | gray << 16 | alpha << 24).littleEndian
                x &+= 1
            }
        }
    }

    /// Calls `body` with each pixel's index and its sample (of ``bitDepth`` ≤ 8 bits) in
    /// `source`, left to right.
    @inline(__always)
    private func forEachSample(_ source: UnsafePointer<UInt8>, _ body: (Int, UInt8) -> Void) {
        if bitDepth == 8 {
            var x = 0
            while x < width {
                body(x, source[x])
                x &+= 1
            }
            return
        }
        let perByte = 8 / bitDepth
        let mask = UInt8(truncatingIfNeeded: (1 << bitDepth) - 1)
        var x = 0
        while x < width {
            let byte = source[x / perByte]
            let shift = 8 &- bitDepth &* (x % perByte &+ 1)
            body(x, (byte >> UInt8(shift)) & mask)
            x &+= 1
        }
    }

    /// ``expand(_:into:)`` for 16-bit samples (big-endian in `source`).
    private func expand16(_ source: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt16>) {
        @inline(__always) func sample(_ index: Int) -> UInt16 {
            UInt16(source[2 &* index]) << 8 | UInt16(source[2 &* index &+ 1])
        }
        let channels = Self.channels(ofColorType: colorType) ?? 1
        var x = 0
        while x < width {
            let base = x &* channels
            let out = output + 4 &* x
            switch channels {
            case 1:
                let gray = sample(base)
                out[0] = gray
                out[1] = gray
                out[2] = gray
                out[3] = colorKey?.gray == gray ? 0 : 0xFFFF
            case 2:
                let gray = sample(base)
                out[0] = gray
                out[1] = gray
                out[2] = gray
                out[3] = sample(base &+ 1)
            case 3:
                let red = sample(base), green = sample(base &+ 1), blue = sample(base &+ 2)
                out[0] = red
                out[1] = green
                out[2] = blue
                let matches = colorKey.map { $0.red == red && $0.green == green && $0.blue == blue } ?? false
                out[3] = matches ? 0 : 0xFFFF
            default:
                out[0] = sample(base)
                out[1] = sample(base &+ 1)
                out[2] = sample(base &+ 2)
                out[3] = sample(base &+ 3)
            }
            x &+= 1
        }
    }
}
