import CPNG
import WebImageCore

/// zlib's inflate of an 8-bit RGB or RGBA PNG's image data into rows, each unfiltered by
/// ``PNGTruecolorRows`` as soon as it is complete: fed the data piece by piece, it holds
/// one filtered row and two RGBA rows, never the picture.
///
/// The `z_stream` lives on the heap: zlib keeps its address and refuses a stream that moved.
final class PNGRowInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private let width: Int
    private let height: Int
    private let channels: Int
    private let filteredRowBytes: Int
    /// The filtered row being inflated: its filter type, then its bytes.
    private let filtered: UnsafeMutableRawPointer
    /// The previous row's RGBA pixels (zeros above the first row), and the row being made.
    private var above: UnsafeMutableRawPointer
    private var current: UnsafeMutableRawPointer
    private var filled = 0
    private var rows = 0
    /// Whether zlib has reached the end of the stream (its Adler-32 checked).
    private(set) var streamEnded = false

    /// An inflater for the image data of a picture with `header`; `nil` when zlib cannot
    /// start one.
    init?(header: spng_ihdr) {
        width = Int(header.width)
        height = Int(header.height)
        channels = header.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue) ? 4 : 3
        filteredRowBytes = 1 + width * channels
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard inflateInit_(stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            return nil
        }
        // The slack lets the last pixel of an RGB row be read as four bytes.
        filtered = .allocate(byteCount: filteredRowBytes + 16, alignment: 16)
        above = .allocate(byteCount: width * 4 + 16, alignment: 16)
        current = .allocate(byteCount: width * 4 + 16, alignment: 16)
        above.initializeMemory(as: UInt8.self, repeating: 0, count: width * 4 + 16)
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        filtered.deallocate()
        above.deallocate()
        current.deallocate()
    }

    /// Whether every row has been given and the stream has ended after the last one.
    var isComplete: Bool { streamEnded && rows == height }

    /// Inflates `piece`, the next bytes of the zlib stream, calling `body` with each row
    /// it completes (RGBA8, `width × 4` bytes, valid during the call).
    ///
    /// - Returns: `false` when zlib finds the data bad, the stream goes on after its end or
    ///   past the last row, or a row has an unknown filter type.
    func inflate(_ piece: UnsafeRawBufferPointer, _ body: (UnsafeRawPointer) -> Void) -> Bool {
        guard !piece.isEmpty else { return true }
        guard !streamEnded else { return false }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: piece.baseAddress!.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(piece.count)
        var overrun: UInt8 = 0
        while stream.pointee.avail_in > 0 {
            let status: Int32
            if rows < height {
                stream.pointee.next_out = filtered.advanced(by: filled).assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(filteredRowBytes - filled)
                status = CPNG.inflate(stream, Z_NO_FLUSH)
                filled = filteredRowBytes - Int(stream.pointee.avail_out)
                if filled == filteredRowBytes {
                    guard PNGTruecolorRows.defilter(filtered, above: above, into: current, width: width, channels: channels) else {
                        return false
                    }
                    body(current)
                    swap(&above, &current)
                    filled = 0
                    rows += 1
                }
            } else {
                // Every row is in: the stream may only end (its Adler-32), giving no byte more.
                status = withUnsafeMutablePointer(to: &overrun) { byte in
                    stream.pointee.next_out = byte
                    stream.pointee.avail_out = 1
                    return CPNG.inflate(stream, Z_NO_FLUSH)
                }
                guard stream.pointee.avail_out == 1 else { return false }
            }
            if status == Z_STREAM_END {
                streamEnded = true
                return stream.pointee.avail_in == 0
            }
            guard status == Z_OK else { return false }
        }
        return true
    }
}
