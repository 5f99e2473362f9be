import Hummingbird
import NIOCore

extension Response {
    /// A 200 answer of `text`, of type `contentType`.
    static func text(_ text: String, contentType: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
