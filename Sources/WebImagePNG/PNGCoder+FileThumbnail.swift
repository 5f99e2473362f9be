import CPNG
import Foundation
import WebImageCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension PNGCoder {
    /// A thumbnail of the still PNG in the file at `path`, decoded row by row straight from
    /// the file: neither the file's bytes nor the decoded picture are ever held whole, only
    /// stdio's buffer (and a 64 KiB piece of image data for an 8-bit RGB or RGBA picture,
    /// which ``PNGTruecolorRows`` reads) and the few rows the resampler spans.
    ///
    /// The pixels, errors, alpha flag and colour profile are those ``decode(_:options:)``
    /// gives for the file's data.
    ///
    /// - Returns: `nil` where the file should be read and decoded as data instead: it
    ///   cannot be opened, is not a PNG, is an APNG (an `acTL` chunk before the image data),
    ///   is interlaced, or `options` ask for no smaller picture.
    package static func streamedThumbnail(atPath path: String, options: ImageDecodeOptions) throws(ImageError) -> Image? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        guard isStill(file) else { return nil }
        return try decodeStreamedThumbnail(from: .file(file), options: options)
    }

    /// Whether `file` holds a PNG whose image data comes with no `acTL` chunk before it:
    /// the chunk headers up to the first IDAT are read, their data skipped.
    private static func isStill(_ file: UnsafeMutablePointer<FILE>) -> Bool {
        var signature = [UInt8](repeating: 0, count: PNGChunkReader.signature.count)
        guard fread(&signature, 1, signature.count, file) == signature.count, signature.elementsEqual(PNGChunkReader.signature) else {
            return false
        }
        var header = [UInt8](repeating: 0, count: 8)
        while fread(&header, 1, 8, file) == 8 {
            let length = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            switch type {
            case "IDAT": return true
            case "acTL", "IEND": return false
            default: guard fseeko(file, off_t(length) + 4, SEEK_CUR) == 0 else { return false }
            }
        }
        return false
    }
}
