import Hummingbird
import NIOCore

/// The body of a result as answers write it: bytes in memory, which every answer writing
/// them shares without a copy, or a ``ResultFile`` read a piece at a time.
///
/// A result larger than ``ResultCache``'s in-memory size for hits is answered from its
/// file, so that answers waiting on slow clients hold no copy of it: the memory an answer
/// holds is then one piece, whatever the result's size and however many clients ask.
enum ResultBody: Sendable {
    /// Bytes in memory.
    case bytes(ByteBuffer)
    /// A cached result's file.
    case file(ResultFile)

    /// The body's length in bytes.
    var count: Int {
        switch self {
        case .bytes(let buffer): buffer.readableBytes
        case .file(let file): file.count
        }
    }

    /// The response body that writes these bytes.
    var responseBody: ResponseBody {
        switch self {
        case .bytes(let buffer):
            return ResponseBody(byteBuffer: buffer)
        case .file(let file):
            return ResponseBody(contentLength: file.count) { writer in
                try await file.write(to: &writer)
                try await writer.finish(nil)
            }
        }
    }
}
