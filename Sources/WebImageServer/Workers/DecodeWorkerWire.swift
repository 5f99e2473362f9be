import Foundation
import WebImage

/// The bytes of the decode worker's protocol (see ``DecodeWorker``): whole numbers as
/// 64-bit little-endian, texts and byte runs as a length then the bytes. A reader never
/// trusts a length: every read is checked against what is left and against its limit.
struct DecodeWorkerWire: Sendable {
    /// The bytes written so far, or the bytes being read.
    private(set) var bytes: Data
    /// Where the next read starts.
    private var offset = 0

    /// A writer, empty.
    init() {
        bytes = Data()
    }

    /// A reader of `bytes`.
    init(reading bytes: Data) {
        self.bytes = bytes
    }

    /// Appends `value`.
    mutating func write(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `value`'s bit pattern.
    mutating func write(_ value: Double) {
        write(Int(Int64(bitPattern: value.bitPattern)))
    }

    /// Appends `text` as its length and its UTF-8 bytes.
    mutating func write(_ text: String) {
        write(Data(text.utf8))
    }

    /// Appends `data` as its length and its bytes.
    mutating func write(_ data: Data) {
        write(data.count)
        bytes.append(data)
    }

    /// The next whole number.
    mutating func readInt() throws(ImageError) -> Int {
        guard bytes.count - offset >= 8 else { throw Self.truncated }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[bytes.startIndex + offset + index]) << (8 * index) }
        offset += 8
        return Int(Int64(bitPattern: value))
    }

    /// The next whole number, which must lie in `range`.
    mutating func readInt(in range: ClosedRange<Int>) throws(ImageError) -> Int {
        let value = try readInt()
        guard range.contains(value) else { throw ImageError(.badImageData, "the decode worker's message holds \(value), outside \(range)") }
        return value
    }

    /// The next number of the bit pattern ``write(_:)-(Double)`` wrote.
    mutating func readDouble() throws(ImageError) -> Double {
        Double(bitPattern: UInt64(bitPattern: Int64(try readInt())))
    }

    /// The next byte run, of at most `limit` bytes.
    mutating func readData(limit: Int) throws(ImageError) -> Data {
        let count = try readInt(in: 0...limit)
        guard bytes.count - offset >= count else { throw Self.truncated }
        let start = bytes.startIndex + offset
        offset += count
        return bytes.subdata(in: start..<start + count)
    }

    /// The next text, of at most `limit` bytes.
    mutating func readText(limit: Int) throws(ImageError) -> String {
        String(decoding: try readData(limit: limit), as: UTF8.self)
    }

    /// The failure of a message that ends too soon.
    private static var truncated: ImageError { ImageError(.badImageData, "the decode worker's message ends too soon") }
}
