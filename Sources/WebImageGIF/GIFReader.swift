import CGIF
import WebImageCore

/// Walks a GIF file record by record with giflib's low-level API.
///
/// Unlike `DGifSlurp`, which allocates every image from its declared size, the reader
/// hands each record to its caller before any pixel memory exists, so the caller can
/// check sizes against its limits first. Pixels are delivered one row at a time.
final class GIFReader {
    /// One record of the file.
    enum Record {
        /// An image descriptor; its pixels must be read or skipped next.
        case frame(GIFFrameDescriptor)
        /// A Graphics Control Extension for the next frame.
        case graphicControl(GIFGraphicControl)
        /// A NETSCAPE2.0 or ANIMEXTS1.0 loop count (0 = forever).
        case loopCount(Int)
        /// The trailer: no more records.
        case end
    }

    /// The logical screen (canvas) size.
    let screenSize: PixelSize
    private let file: UnsafeMutablePointer<GifFileType>
    private let source: GIFByteSource

    /// Opens `bytes`, which must stay valid for the reader's lifetime, and reads the
    /// screen descriptor.
    init(bytes: UnsafeRawBufferPointer) throws(ImageError) {
        source = GIFByteSource(bytes)
        var error: Int32 = 0
        let context = Unmanaged.passUnretained(source).toOpaque()
        guard let file = DGifOpen(context, GIFByteSource.inputFunction, &error) else {
            throw GIFReader.error(code: error, while: "reading the GIF header")
        }
        self.file = file
        screenSize = PixelSize(width: Int(file.pointee.SWidth), height: Int(file.pointee.SHeight))
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(file, &error)
    }

    /// Reads the next record; extensions other than graphic control and loop count are
    /// skipped.
    func nextRecord() throws(ImageError) -> Record {
        while true {
            var type = UNDEFINED_RECORD_TYPE
            try check(DGifGetRecordType(file, &type), "reading a record type")
            switch type {
            case IMAGE_DESC_RECORD_TYPE:
                try check(DGifGetImageDesc(file), "reading an image descriptor")
                return .frame(currentDescriptor())
            case EXTENSION_RECORD_TYPE:
                if let record = try readExtension() { return record }
            case TERMINATE_RECORD_TYPE:
                return .end
            default:
                throw ImageError(.badImageData, "the GIF has an unknown record type")
            }
        }
    }

    /// Decodes the current frame's pixels, calling `body` with each row's index (within
    /// the frame, in display order) and its colour indices.
    func readRows(
        of frame: GIFFrameDescriptor,
        _ body: (_ row: Int, _ indices: UnsafeBufferPointer<UInt8>) -> Void
    ) throws(ImageError) {
        guard frame.width > 0, frame.height > 0 else { return try skipPixels() }
        let line = UnsafeMutableBufferPointer<GifPixelType>.allocate(capacity: frame.width)
        defer { line.deallocate() }
        for row in frame.storedRowOrder {
            try check(DGifGetLine(file, line.baseAddress, Int32(frame.width)), "decoding image data")
            body(row, UnsafeBufferPointer(line))
        }
    }

    /// Passes over the current frame's compressed data without decoding it.
    func skipPixels() throws(ImageError) {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(DGifGetCode(file, &codeSize, &block), "skipping image data")
        while block != nil {
            try check(DGifGetCodeNext(file, &block), "skipping image data")
        }
    }

    private func currentDescriptor() -> GIFFrameDescriptor {
        let image = file.pointee.Image
        var table = [UInt32](repeating: 0, count: 256)
        if let map = image.ColorMap ?? file.pointee.SColorMap, let colors = map.pointee.Colors {
            for index in 0..<min(Int(map.pointee.ColorCount), 256) {
                let color = colors[index]
                let packed = UInt32(color.Red) | UInt32(color.Green) << 8 | UInt32(color.Blue) << 16 | 0xFF00_0000
                table[index] = packed.littleEndian
            }
        }
        return GIFFrameDescriptor(
            left: Int(image.Left), top: Int(image.Top),
            width: Int(image.Width), height: Int(image.Height),
            isInterlaced: image.Interlace, colorTable: table
        )
    }

    /// Reads one extension and its sub-blocks; returns a record only for the kinds the
    /// decoder needs.
    private func readExtension() throws(ImageError) -> Record? {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(DGifGetExtension(file, &code, &block), "reading an extension")
        var record: Record?
        var isLoopApplication = false
        var isFirst = true
        while let current = block {
            let payload = UnsafeBufferPointer(start: current + 1, count: Int(current[0]))
            if code == GRAPHICS_EXT_FUNC_CODE, isFirst, let control = GIFGraphicControl(block: payload) {
                record = .graphicControl(control)
            } else if code == APPLICATION_EXT_FUNC_CODE, isFirst {
                let name = String(decoding: payload, as: UTF8.self)
                isLoopApplication = name == "NETSCAPE2.0" || name == "ANIMEXTS1.0"
            } else if isLoopApplication, record == nil, payload.count >= 3, payload[0] == 1 {
                record = .loopCount(Int(payload[1]) | Int(payload[2]) << 8)
            }
            isFirst = false
            try check(DGifGetExtensionNext(file, &block), "reading an extension")
        }
        return record
    }

    private func check(_ status: Int32, _ action: String) throws(ImageError) {
        guard status == GIF_OK else {
            throw GIFReader.error(code: file.pointee.Error, while: action)
        }
    }

    private static func error(code: Int32, while action: String) -> ImageError {
        let reason = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return ImageError(.badImageData, "GIF data is invalid (\(action)): \(reason)")
    }
}
