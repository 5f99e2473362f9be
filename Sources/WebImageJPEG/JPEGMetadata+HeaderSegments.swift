#if canImport(Glibc)
import Glibc
#endif

extension JPEGMetadata {
    /// The bytes of the JPEG in `file` from its start up to its first scan (or its end):
    /// the start-of-image marker and every marker segment whole, which is all that
    /// ``init(reading:)`` reads. The file is left after them.
    ///
    /// - Returns: `nil` when the file does not start with the JPEG signature.
    static func headerSegments(of file: UnsafeMutablePointer<FILE>) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 2)
        guard fread(&bytes, 1, 2, file) == 2, bytes == [0xFF, 0xD8] else { return nil }
        while true {
            var byte = getc(file)
            guard byte == 0xFF else { return bytes }
            repeat { byte = getc(file) } while byte == 0xFF  // fill bytes
            guard byte != EOF else { return bytes }
            bytes += [0xFF, UInt8(byte)]
            switch byte {
            case 0x01, 0xD0...0xD8: continue  // stand-alone markers carry no length
            case 0xD9, 0xDA: return bytes  // EOI or SOS: no more header segments
            default: break
            }
            var lengthBytes = [UInt8](repeating: 0, count: 2)
            guard fread(&lengthBytes, 1, 2, file) == 2 else { return bytes }
            bytes += lengthBytes
            let length = Int(lengthBytes[0]) << 8 | Int(lengthBytes[1])
            guard length > 2 else { continue }
            let start = bytes.count
            bytes += repeatElement(0, count: length - 2)
            let read = bytes.withUnsafeMutableBufferPointer { fread($0.baseAddress! + start, 1, length - 2, file) }
            guard read == length - 2 else { return Array(bytes[..<(start + read)]) }
        }
    }
}
