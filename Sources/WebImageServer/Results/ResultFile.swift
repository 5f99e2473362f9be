import HTTPTypes
import Hummingbird
import NIOCore
import WebImage

#if canImport(Glibc)
import Glibc
#endif

/// A cached result's file, opened for the answers that write it: its bytes are read a
/// piece at a time, as the client takes them, so a client that reads slowly (or not at
/// all) holds one piece of memory, not the whole result.
///
/// The file stays open until the last answer writing it is done; a cache that removes or
/// replaces the entry meanwhile (both unlink or rename over the name) leaves these bytes
/// readable and whole.
final class ResultFile: Sendable {
    /// The bytes read at a time: 256 KiB.
    static let pieceSize = 256 << 10

    /// The file's size when it was opened, in bytes.
    let count: Int
    private let descriptor: Int32

    /// Opens the file at `path`; `nil` when there is none or it cannot be read.
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        count = Int(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Writes the file's ``count`` bytes to `writer`, reading each piece on the blocking-I/O
    /// threads once the writer has taken the one before.
    ///
    /// - Throws: ``ImageServerError`` 500 when the file ends early or cannot be read, or what
    ///   the writer throws (the client left).
    func write(to writer: inout any ResponseBodyWriter) async throws {
        var offset = 0
        while offset < count {
            let piece = try await read(at: offset, count: min(Self.pieceSize, count - offset))
            offset += piece.readableBytes
            try await writer.write(piece)
        }
    }

    /// Up to `count` bytes from `offset`.
    private func read(at offset: Int, count: Int) async throws(ImageServerError) -> ByteBuffer {
        let descriptor = self.descriptor
        return try await BlockingIO.run { () throws(ImageServerError) -> ByteBuffer in
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
                max(0, pread(descriptor, bytes.baseAddress, count, off_t(offset)))
            }
            guard read > 0 else {
                throw ImageServerError(.internalServerError, "the cached result could not be read", detail: "read \(offset) of the file's bytes")
            }
            return buffer
        }
    }
}
