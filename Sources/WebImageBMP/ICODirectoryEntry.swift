/// One image listed in an ICO or CUR directory.
struct ICODirectoryEntry: Sendable, Equatable {
    /// The width the directory gives (256 when stored as 0).
    let width: Int
    /// The height the directory gives (256 when stored as 0).
    let height: Int
    /// Bits per pixel as the directory gives it; 0 when unstated (cursors use the field
    /// for the hot spot).
    let bitsPerPixel: Int
    /// Where the entry's bytes start in the file.
    let offset: Int
    /// How many bytes the entry takes.
    let byteCount: Int

    /// Reads the 16-byte entry at `offset`, or `nil` when it does not fit in the buffer.
    init?(reading reader: LittleEndianReader, at offset: Int, isCursor: Bool) {
        guard let width = reader.uint8(at: offset), let height = reader.uint8(at: offset + 1),
            let depth = reader.uint16(at: offset + 6),
            let byteCount = reader.uint32(at: offset + 8), let dataOffset = reader.uint32(at: offset + 12)
        else { return nil }
        self.width = width == 0 ? 256 : Int(width)
        self.height = height == 0 ? 256 : Int(height)
        bitsPerPixel = isCursor ? 0 : Int(depth)
        self.offset = Int(dataOffset)
        self.byteCount = Int(byteCount)
    }

    /// The number of pixels the directory promises.
    var pixelCount: Int { width * height }
}
