import WebImageCore

/// What a BMP's info header says about its pixels, checked for consistency: every
/// version from the 12-byte OS/2 1.x core header to the 124-byte version 5 header.
struct BMPHeader: Sendable {
    /// The size of the info header in bytes (12 to 124).
    let infoSize: Int
    /// The width in pixels.
    let width: Int
    /// The height in pixels (for an icon payload, of the colour image only).
    let height: Int
    /// Whether the first stored row is the top one.
    let isTopDown: Bool
    /// Bits per pixel: 1, 2, 4, 8, 16, 24 or 32.
    let bitsPerPixel: Int
    /// How rows are stored.
    let compression: BMPCompression
    /// The byte count of the pixel data the header declares (0 when unstated).
    let imageSize: Int
    /// The red, green, blue and alpha channels of 16- and 32-bit pixels.
    let red: BMPChannelMask, green: BMPChannelMask, blue: BMPChannelMask, alpha: BMPChannelMask
    /// The colour table, as opaque RGBA.
    let palette: [RGBA8]
    /// Where the colour table ends, which is where an icon's pixels start.
    let paletteEnd: Int

    /// The header sizes Windows defines: version 3, the two Adobe variants, 4 and 5.
    private static let windowsSizes: Set<Int> = [40, 52, 56, 108, 124]

    /// Reads the info header that starts at `start` in `reader`.
    ///
    /// - Parameters:
    ///   - pixelOffset: where the file header says the pixels start, if it says; a colour
    ///     table ends there at the latest (OS/2 1.x headers give no colour count).
    ///   - isIconPayload: the header comes from an ICO or CUR entry, whose declared
    ///     height covers the colour image and the mask below it.
    /// - Throws: `ImageError.Code.badImageData` for a header that is truncated, of an
    ///   unknown version, or inconsistent (planes other than 1, an unknown depth or
    ///   compression, an empty or negative width, a palette larger than the depth allows,
    ///   a missing channel mask, run-length data stored top-down).
    init(reading reader: LittleEndianReader, at start: Int, pixelOffset: Int? = nil, isIconPayload: Bool = false) throws(ImageError) {
        guard let rawSize = reader.uint32(at: start) else { throw BMPHeader.truncated }
        let size = Int(rawSize)
        let isCore = size == 12
        let isOS2 = isCore || (16...64).contains(size) && !BMPHeader.windowsSizes.contains(size)
        guard isOS2 || BMPHeader.windowsSizes.contains(size) else {
            throw ImageError(.badImageData, "the BMP info header has an unknown size of \(size) bytes")
        }
        guard start + size <= reader.bytes.count else { throw BMPHeader.truncated }
        infoSize = size

        let rawWidth: Int, rawHeight: Int, planes: UInt16, depth: UInt16
        if isCore {
            rawWidth = Int(reader.uint16(at: start + 4)!)
            rawHeight = Int(reader.uint16(at: start + 6)!)
            planes = reader.uint16(at: start + 8)!
            depth = reader.uint16(at: start + 10)!
        } else {
            rawWidth = Int(reader.int32(at: start + 4)!)
            rawHeight = Int(reader.int32(at: start + 8)!)
            planes = reader.uint16(at: start + 12)!
            depth = reader.uint16(at: start + 14)!
        }
        func field(_ offset: Int) -> UInt32 {
            offset + 4 <= size ? reader.uint32(at: start + offset)! : 0
        }
        guard planes == 1 else { throw ImageError(.badImageData, "the BMP declares \(planes) planes instead of 1") }
        guard [1, 2, 4, 8, 16, 24, 32].contains(depth) else {
            throw ImageError(.badImageData, "the BMP declares an unsupported depth of \(depth) bits per pixel")
        }
        bitsPerPixel = Int(depth)
        guard rawWidth > 0, rawHeight != 0 else {
            throw ImageError(.badImageData, "the BMP declares an empty or negative size \(rawWidth)×\(rawHeight)")
        }
        width = rawWidth
        isTopDown = rawHeight < 0
        let fullHeight = abs(rawHeight)
        height = isIconPayload ? max(1, fullHeight / 2) : fullHeight

        let rawCompression = field(16)
        guard let compression = BMPCompression(rawValue: rawCompression, isOS2: isOS2) else {
            throw ImageError(.badImageData, "the BMP uses compression \(rawCompression), which is not supported")
        }
        self.compression = compression
        let depthFits =
            switch compression {
            case .none: true
            case .rle8: bitsPerPixel == 8
            case .rle4: bitsPerPixel == 4
            case .rle24: bitsPerPixel == 24
            case .bitFields: bitsPerPixel == 16 || bitsPerPixel == 32
            }
        guard depthFits else {
            throw ImageError(.badImageData, "the BMP's compression does not fit its depth of \(bitsPerPixel) bits")
        }
        guard !(compression.isRunLength && isTopDown) else {
            throw ImageError(.badImageData, "the BMP stores run-length data top-down, which the format forbids")
        }
        imageSize = Int(field(20))
        let (horizontalDensity, verticalDensity) = (UInt64(field(24)), UInt64(field(28)))
        guard
            horizontalDensity == 0 || verticalDensity == 0
                || max(horizontalDensity, verticalDensity) <= 1000 * min(horizontalDensity, verticalDensity)
        else {
            throw ImageError(.badImageData, "the BMP's pixel densities differ by more than a thousandfold")
        }

        var masksEnd = start + size
        if compression == .bitFields {
            let hasAlphaMask = rawCompression == 6 || size >= 56
            var masks: [UInt32]
            if size >= 52 {
                masks = [field(40), field(44), field(48), size >= 56 ? field(52) : 0]
            } else {
                let count = rawCompression == 6 ? 4 : 3
                masks = []
                for index in 0..<count {
                    guard let mask = reader.uint32(at: masksEnd + 4 * index) else { throw BMPHeader.truncated }
                    masks.append(mask)
                }
                masksEnd += 4 * count
                if count == 3 { masks.append(0) }
            }
            guard masks[0] != 0, masks[1] != 0, masks[2] != 0 else {
                throw ImageError(.badImageData, "the BMP's bit fields leave a colour channel empty")
            }
            red = BMPChannelMask(masks[0])
            green = BMPChannelMask(masks[1])
            blue = BMPChannelMask(masks[2])
            alpha = BMPChannelMask(hasAlphaMask ? masks[3] : 0)
        } else if bitsPerPixel == 32, size >= 56, field(52) != 0 {
            // Version 4 and 5 headers name an alpha mask that applies to plain 32-bit pixels too.
            (red, green, blue, alpha) = (BMPChannelMask(0xFF_0000), BMPChannelMask(0xFF00), BMPChannelMask(0xFF), BMPChannelMask(field(52)))
        } else if bitsPerPixel == 16 {
            (red, green, blue, alpha) = (BMPChannelMask(0x7C00), BMPChannelMask(0x03E0), BMPChannelMask(0x001F), BMPChannelMask(0))
        } else {
            let alphaMask: UInt32 = isIconPayload ? 0xFF00_0000 : 0
            (red, green, blue, alpha) = (BMPChannelMask(0xFF_0000), BMPChannelMask(0xFF00), BMPChannelMask(0xFF), BMPChannelMask(alphaMask))
        }

        let declaredColors = Int(field(32))
        let colorCount: Int
        if bitsPerPixel <= 8 {
            guard declaredColors <= 1 << bitsPerPixel else {
                throw ImageError(
                    .badImageData,
                    "the BMP declares \(declaredColors) palette colours for \(bitsPerPixel) bits per pixel"
                )
            }
            colorCount = declaredColors == 0 ? 1 << bitsPerPixel : declaredColors
        } else {
            colorCount = 0
        }
        let entrySize = isCore ? 3 : 4
        let tableEnd = pixelOffset.map { $0 > masksEnd ? min($0, reader.bytes.count) : reader.bytes.count } ?? reader.bytes.count
        let available = max(0, (tableEnd - masksEnd) / entrySize)
        let count = min(colorCount, available)
        var palette: [RGBA8] = []
        palette.reserveCapacity(count)
        for index in 0..<count {
            let offset = masksEnd + index * entrySize
            palette.append(RGBA8(red: reader.bytes[offset + 2], green: reader.bytes[offset + 1], blue: reader.bytes[offset], alpha: 255))
        }
        self.palette = palette
        paletteEnd = masksEnd + count * entrySize
    }

    /// The size in pixels.
    var size: PixelSize { PixelSize(width: width, height: height) }

    /// Bytes in one stored row of uncompressed pixels (rows are padded to four bytes), or
    /// `nil` when the width makes that overflow.
    var bytesPerRow: Int? {
        let (bits, overflow) = width.multipliedReportingOverflow(by: bitsPerPixel)
        guard !overflow, bits <= Int.max - 31 else { return nil }
        return (bits + 31) / 32 * 4
    }

    private static let truncated = ImageError(.badImageData, "the BMP header is truncated")
}
