import LoopbackHTTPServer
import WebImageTestSupport

extension LoopbackResponseWriter {
    /// Responds with a raw test image of `width` × `height`.
    package func respondWithRawImage(width: Int = 4, height: Int = 3, headers: [(String, String)] = []) async {
        await respond(headers: [("Content-Type", "image/x-raw")] + headers, body: RawRGBATestCoder.encode(width: width, height: height))
    }
}
