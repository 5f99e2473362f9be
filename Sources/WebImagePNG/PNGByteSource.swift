import CPNG
import WebImageCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a PNG is decoded from: bytes in memory, or an open file read from its start. Both
/// libspng can read either, each from the beginning; ``PNGInflatedImage`` decodes the
/// bytes in memory and ``PNGTruecolorRows`` the file.
enum PNGByteSource {
    /// Bytes that stay valid while any decoder made from them is used.
    case memory(UnsafeRawBufferPointer)
    /// A file that stays open while any decoder made from it is used.
    case file(UnsafeMutablePointer<FILE>)

    /// A libspng decoder reading the PNG from its start, with the limits of `options`.
    func decoder(options: ImageDecodeOptions) throws(ImageError) -> SPNGContext {
        switch self {
        case let .memory(stream):
            return try .decoder(for: stream, options: options)
        case let .file(file):
            guard fseeko(file, 0, SEEK_SET) == 0 else { throw ImageError(.badImageData, "could not go back to the start of the PNG file") }
            return try .decoder(reading: file, options: options)
        }
    }
}
