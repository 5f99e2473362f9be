import Foundation
import WebImageCore
import WebImagePNG

/// Decodes Windows icons (ICO) and cursors (CUR), written in Swift.
///
/// An icon file lists several images of one picture; the coder decodes one: the largest
/// (the deepest among equals), or, with `ImageDecodeOptions.thumbnailPixelSize`, the
/// smallest that covers the thumbnail box (else the largest), then resamples it to the
/// target size. Entries hold either a BMP without its file header, whose transparency
/// comes from its alpha channel or from the 1-bit mask stored after it, or a PNG, which
/// `PNGCoder` decodes. Every size is checked against the options' limits first.
/// Encoding writes one PNG entry.
public struct ICOCoder: ImageCoder {
    /// Creates the coder.
    public init() {}

    /// The formats this coder decodes: ICO and CUR.
    public var decodableFormats: Set<ImageFormat> { [.ico] }

    /// Whether `data` starts with an icon or cursor directory header.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .ico
    }

    /// Decodes the entry that suits the options: the largest, or the one nearest the
    /// thumbnail size.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not an ICO or CUR") }
        let entry = try data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try ICOCoder.chosenEntry(LittleEndianReader(bytes: bytes), options: options) }
        }.get()
        // An entry is read within its stated size, unless that is too small to hold even
        // an info header: then the writer left it unfilled, and the entry runs to the end
        // of the file (each decoder stops where its own format ends).
        let start = data.startIndex + entry.offset
        let end = entry.byteCount < 40 ? data.endIndex : start + entry.byteCount
        let payload = data.subdata(in: start..<end)
        let bitmap: Bitmap
        if ImageFormat(sniffing: payload) == .png {
            bitmap = try decodePNG(payload, options: options)
        } else {
            bitmap = try payload.withUnsafeBytes { bytes in
                Result { () throws(ImageError) in try ICOCoder.decodeBMP(LittleEndianReader(bytes: bytes), options: options) }
            }.get()
        }
        let target = options.targetSize(forSource: bitmap.size, bytesPerPixel: bitmap.pixelFormat.bytesPerPixel)
        return try Image(bitmap: bitmap.resized(to: target), scale: options.scaleFactor ?? 1, format: .ico)
    }

    /// Whether `format` is ICO.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .ico
    }

    /// Encodes the first frame of `image` as an icon with one 32-bit PNG entry, the form
    /// Windows Vista and later read at any size (a side of 256 or more is stored as 0).
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard canEncode(to: format) else {
            throw ImageError(.unsupportedFormat, "the ICO coder cannot write \(format.rawValue)")
        }
        let image = try options.prepared(image, for: format)
        let still = Image(bitmap: image.bitmap, format: image.format, hasAlpha: image.hasAlpha)
        let png = try PNGCoder().encode(still, as: .png, options: options)
        guard png.count <= Int(UInt32.max) - 22 else {
            throw ImageError(.encodingFailed, "the image is too large for an icon entry")
        }
        func side(_ length: Int) -> UInt8 { length >= 256 ? 0 : UInt8(length) }
        var header: [UInt8] = [0, 0, 1, 0, 1, 0, side(image.pixelWidth), side(image.pixelHeight), 0, 0, 1, 0, 32, 0]
        withUnsafeBytes(of: UInt32(png.count).littleEndian) { header += $0 }
        withUnsafeBytes(of: UInt32(22).littleEndian) { header += $0 }
        return Data(header) + png
    }

    /// Reads the directory and picks the entry to decode.
    static func chosenEntry(_ reader: LittleEndianReader, options: ImageDecodeOptions) throws(ImageError) -> ICODirectoryEntry {
        guard let type = reader.uint16(at: 2), let count = reader.uint16(at: 4) else {
            throw ImageError(.badImageData, "the icon directory is truncated")
        }
        guard count > 0 else { throw ImageError(.badImageData, "the icon file lists no images") }
        var entries: [ICODirectoryEntry] = []
        for index in 0..<Int(count) {
            guard let entry = ICODirectoryEntry(reading: reader, at: 6 + 16 * index, isCursor: type == 2) else {
                throw ImageError(.badImageData, "the icon directory is truncated")
            }
            if entry.offset >= 6 + 16 * Int(count), entry.offset < reader.bytes.count,
                entry.byteCount <= reader.bytes.count - entry.offset
            {
                entries.append(entry)
            }
        }
        let bySize = entries.sorted { ($0.pixelCount, $0.bitsPerPixel) < ($1.pixelCount, $1.bitsPerPixel) }
        guard let largest = bySize.last else {
            throw ImageError(.badImageData, "no image in the icon file lies within its bytes")
        }
        if let box = options.thumbnailPixelSize, box.width > 0, box.height > 0,
            let smallest = bySize.first(where: { $0.width >= box.width && $0.height >= box.height })
        {
            return bySize.last { $0.pixelCount == smallest.pixelCount } ?? smallest
        }
        return largest
    }

    /// Decodes a PNG entry at full size (the thumbnail is made from it afterwards).
    private func decodePNG(_ payload: Data, options: ImageDecodeOptions) throws(ImageError) -> Bitmap {
        var fullSize = options
        fullSize.thumbnailPixelSize = nil
        fullSize.scaleDownLimitBytes = nil
        fullSize.firstFrameOnly = true
        return try PNGCoder().decode(payload, options: fullSize).bitmap.convertedToRGBA8()
    }

    /// Decodes a BMP entry: its colour image, then transparency from the AND mask unless
    /// a 32-bit image carries its own alpha.
    static func decodeBMP(_ reader: LittleEndianReader, options: ImageDecodeOptions) throws(ImageError) -> Bitmap {
        let header = try BMPHeader(reading: reader, at: 0, isIconPayload: true)
        try options.checkAllocation(header.size)
        var (bitmap, end) = try BMPPixelDecoder(header: header, reader: reader, pixelOffset: header.paletteEnd).decode()
        let usesOwnAlpha = header.bitsPerPixel == 32 && bitmap.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element != 0 }
        if !usesOwnAlpha {
            applyMask(reader, from: end, to: &bitmap, isTopDown: header.isTopDown)
        }
        return bitmap
    }

    /// Clears the pixels the 1-bit AND mask marks as transparent, and makes the rest
    /// opaque; a truncated or missing mask leaves the image opaque.
    private static func applyMask(_ reader: LittleEndianReader, from start: Int, to bitmap: inout Bitmap, isTopDown: Bool) {
        let width = bitmap.width, height = bitmap.height
        let stride = (width + 31) / 32 * 4
        let hasMask = start <= reader.bytes.count - stride * height
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                let storedRow = isTopDown ? y : height - 1 - y
                for x in 0..<width {
                    let transparent = hasMask && reader.bytes[start + storedRow * stride + x / 8] & (0x80 >> UInt8(x % 8)) != 0
                    pixels[(y * width + x) * 4 + 3] = transparent ? 0 : 255
                }
            }
        }
    }
}
