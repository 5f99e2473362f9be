import WebImageCore

/// Turns a BMP's stored pixels, uncompressed or run-length encoded, into RGBA8 rows.
///
/// Every read is bounds-checked against the buffer: uncompressed data must hold all its
/// rows, run-length data may stop early (the rest stays transparent) but may not write
/// past the last row or jump outside the image.
struct BMPPixelDecoder {
    /// The header describing the pixels.
    let header: BMPHeader
    /// The bytes of the whole file (or icon entry).
    let reader: LittleEndianReader
    /// Where the pixel data starts.
    let pixelOffset: Int

    /// The decoded bitmap and the offset just past the pixel data that was read.
    func decode() throws(ImageError) -> (bitmap: Bitmap, end: Int) {
        guard pixelOffset >= 0, pixelOffset <= reader.bytes.count else {
            throw ImageError(.badImageData, "the BMP's pixel data starts past the end of the file")
        }
        var pixels = try [UInt8](repeating: 0, imageSized: header.width, header.height, 4)
        let end =
            try header.compression.isRunLength
            ? decodeRunLength(into: &pixels)
            : decodeRows(into: &pixels)
        return (Bitmap(width: header.width, height: header.height, pixels: pixels), end)
    }

    /// Uncompressed rows: palette indices, 16/32-bit fields or 24-bit BGR.
    private func decodeRows(into pixels: inout [UInt8]) throws(ImageError) -> Int {
        let width = header.width, height = header.height
        guard let stride = header.bytesPerRow else { throw ImageError(.badImageData, "the BMP's rows are too long") }
        // The last row needs its pixels, not its padding: some writers drop it.
        let (total, overflow) = stride.multipliedReportingOverflow(by: height)
        let needed = total - stride + (width * header.bitsPerPixel + 7) / 8
        guard !overflow, needed <= reader.bytes.count - pixelOffset else {
            throw ImageError(.badImageData, "the BMP's pixel data is truncated")
        }
        let bytes = reader.bytes
        let header = header
        let palette = header.palette
        var badIndex = false
        pixels.withUnsafeMutableBufferPointer { output in
            for storedRow in 0..<height {
                let y = header.isTopDown ? storedRow : height - 1 - storedRow
                let source = pixelOffset + storedRow * stride
                var target = y * width * 4
                func put(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8) {
                    output[target] = red
                    output[target + 1] = green
                    output[target + 2] = blue
                    output[target + 3] = alpha
                    target += 4
                }
                switch header.bitsPerPixel {
                case 1, 2, 4, 8:
                    let depth = header.bitsPerPixel
                    let perByte = 8 / depth
                    let valueMask = UInt8(truncatingIfNeeded: (1 << depth) - 1)
                    for x in 0..<width {
                        let byte = bytes[source + x / perByte]
                        let shift = 8 - depth * (x % perByte + 1)
                        let index = Int((byte >> UInt8(shift)) & valueMask)
                        guard index < palette.count else {
                            badIndex = true
                            return
                        }
                        let colour = palette[index]
                        put(colour.red, colour.green, colour.blue, 255)
                    }
                case 16, 32:
                    let wide = header.bitsPerPixel == 32
                    for x in 0..<width {
                        let value =
                            wide
                            ? UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: source + 4 * x, as: UInt32.self))
                            : UInt32(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: source + 2 * x, as: UInt16.self)))
                        put(
                            header.red.value(in: value), header.green.value(in: value), header.blue.value(in: value),
                            header.alpha.isEmpty ? 255 : header.alpha.value(in: value)
                        )
                    }
                default:
                    for x in 0..<width {
                        let offset = source + 3 * x
                        put(bytes[offset + 2], bytes[offset + 1], bytes[offset], 255)
                    }
                }
            }
        }
        guard !badIndex else {
            throw ImageError(.badImageData, "the BMP uses a colour index past the end of its palette")
        }
        return min(pixelOffset + total, reader.bytes.count)
    }

    /// Run-length data (RLE4, RLE8, RLE24), stored bottom-up. Pixels the data skips are
    /// opaque black (BMP Suite also allows transparent; image-rs's references are black);
    /// runs longer than a row are cut at its end.
    private func decodeRunLength(into pixels: inout [UInt8]) throws(ImageError) -> Int {
        let bytes = reader.bytes
        let width = header.width, height = header.height
        let compression = header.compression
        let palette = header.palette
        pixels.withUnsafeMutableBufferPointer { output in
            for index in stride(from: 3, to: output.count, by: 4) { output[index] = 255 }
        }
        var offset = pixelOffset
        var x = 0, row = 0
        var failure: String?
        pixels.withUnsafeMutableBufferPointer { output in
            func put(_ colour: RGBA8) {
                if x < width {
                    let target = ((height - 1 - row) * width + x) * 4
                    output[target] = colour.red
                    output[target + 1] = colour.green
                    output[target + 2] = colour.blue
                    output[target + 3] = 255
                }
                x += 1
            }
            func colour(_ index: UInt8) -> RGBA8? {
                Int(index) < palette.count ? palette[Int(index)] : nil
            }
            decoding: while offset + 2 <= bytes.count {
                let count = Int(bytes[offset]), value = bytes[offset + 1]
                offset += 2
                if count > 0 {
                    guard row < height else {
                        failure = "the BMP's run-length data runs past the last row"
                        return
                    }
                    switch compression {
                    case .rle24:
                        guard offset + 2 <= bytes.count else { break decoding }
                        let pixel = RGBA8(red: bytes[offset + 1], green: bytes[offset], blue: value)
                        offset += 2
                        for _ in 0..<count { put(pixel) }
                    case .rle4:
                        guard let high = colour(value >> 4), let low = colour(value & 0x0F) else {
                            failure = "the BMP uses a colour index past the end of its palette"
                            return
                        }
                        for index in 0..<count { put(index % 2 == 0 ? high : low) }
                    default:
                        guard let pixel = colour(value) else {
                            failure = "the BMP uses a colour index past the end of its palette"
                            return
                        }
                        for _ in 0..<count { put(pixel) }
                    }
                    continue
                }
                switch value {
                case 0:
                    x = 0
                    row += 1
                case 1:
                    break decoding
                case 2:
                    guard offset + 2 <= bytes.count else { break decoding }
                    x += Int(bytes[offset])
                    row += Int(bytes[offset + 1])
                    offset += 2
                    guard x <= width, row <= height else {
                        failure = "the BMP's run-length data moves outside the image"
                        return
                    }
                default:
                    guard row < height else {
                        failure = "the BMP's run-length data runs past the last row"
                        return
                    }
                    let length = Int(value)
                    let stored =
                        switch compression {
                        case .rle24: length * 3
                        case .rle4: (length + 1) / 2
                        default: length
                        }
                    let available = min(stored, bytes.count - offset)
                    for index in 0..<length {
                        let pixel: RGBA8?
                        switch compression {
                        case .rle24:
                            guard 3 * index + 3 <= available else { break decoding }
                            let at = offset + 3 * index
                            pixel = RGBA8(red: bytes[at + 2], green: bytes[at + 1], blue: bytes[at])
                        case .rle4:
                            guard index / 2 < available else { break decoding }
                            let byte = bytes[offset + index / 2]
                            pixel = colour(index % 2 == 0 ? byte >> 4 : byte & 0x0F)
                        default:
                            guard index < available else { break decoding }
                            pixel = colour(bytes[offset + index])
                        }
                        guard let pixel else {
                            failure = "the BMP uses a colour index past the end of its palette"
                            return
                        }
                        put(pixel)
                    }
                    offset += (stored + 1) & ~1
                }
            }
        }
        if let failure { throw ImageError(.badImageData, failure) }
        return min(offset, bytes.count)
    }
}
