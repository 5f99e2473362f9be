import WebImage
import Foundation

/// Writes the kitty graphics protocol's "transmit and display" command for RGBA pixels.
enum KittyGraphicsEncoder {
    /// The base64 payload is sent in chunks of at most this many bytes, as the protocol asks.
    static let chunkLength = 4096

    /// The escape sequences that show `bitmap` (8-bit RGBA) scaled into `columns` × `rows` cells.
    static func encode(_ bitmap: Bitmap, columns: Int, rows: Int) -> String {
        let payload = Data(bitmap.pixels).base64EncodedString()
        var output = ""
        var start = payload.startIndex
        var first = true
        repeat {
            let end = payload.index(start, offsetBy: chunkLength, limitedBy: payload.endIndex) ?? payload.endIndex
            let more = end < payload.endIndex ? 1 : 0
            let control =
                first
                ? "a=T,f=32,s=\(bitmap.width),v=\(bitmap.height),c=\(columns),r=\(rows),q=2,m=\(more)"
                : "m=\(more)"
            output += "\u{1B}_G\(control);\(payload[start..<end])\u{1B}\\"
            start = end
            first = false
        } while start < payload.endIndex
        return output
    }
}
