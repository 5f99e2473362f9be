import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Refuses, at once, a request that announces a body (`Transfer-Encoding`, or a
/// `Content-Length` other than 0) and closes its connection.
///
/// The server reads no request bodies: it answers GET and HEAD from the path alone. Left
/// to the HTTP layer, a body after the head would be read and thrown away until it ends,
/// so a client trickling one chunk now and then could hold a connection for ever (the idle
/// time-out covers only request heads). Such a request is answered 400 (405 for a method
/// that is not served) with `Connection: close` as soon as its head arrives, without
/// reaching the responder, and nothing more is read from the connection.
///
/// A request already being answered on the same connection (pipelining) is answered
/// first: the refusal waits for the end of its response, so that responses stay in order.
final class RequestBodyRefusalHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Requests passed on whose response has not ended yet.
    private var responsesOwed = 0
    /// The refusal to write once no response is owed; `nil` when none is waiting.
    private var pendingRefusal: (error: ImageServerError, isHead: Bool)?
    /// Whether a request was refused: everything read after it is dropped.
    private var isRefusing = false

    /// A handler for one connection.
    init() {}

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isRefusing else { return }
        let part = Self.unwrapInboundIn(data)
        if case .head(let request) = part {
            if let error = Self.refusal(of: request) {
                isRefusing = true
                pendingRefusal = (error, request.method == .head)
                if responsesOwed == 0 { writeRefusal(context: context) }
                return
            }
            responsesOwed += 1
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = Self.unwrapOutboundIn(data) else { return }
        responsesOwed = max(0, responsesOwed - 1)
        if responsesOwed == 0, pendingRefusal != nil {
            writeRefusal(context: context)
        }
    }

    /// The error that refuses `request`, or `nil` when it announces no body.
    static func refusal(of request: HTTPRequest) -> ImageServerError? {
        let length = request.headerFields[.contentLength]?.trimmingCharacters(in: .whitespaces)
        let announcesBody = request.headerFields[.transferEncoding] != nil || (length != nil && length != "0")
        guard announcesBody else { return nil }
        guard request.method == .get || request.method == .head else {
            return ImageServerError(.methodNotAllowed, "only GET and HEAD are served")
        }
        return ImageServerError(.badRequest, "a GET or HEAD request may not have a body")
    }

    /// Writes the waiting refusal and closes the connection once it is sent.
    private func writeRefusal(context: ChannelHandlerContext) {
        guard let (error, isHead) = pendingRefusal else { return }
        pendingRefusal = nil
        let body = ByteBuffer(string: error.body)
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.contentLength] = String(body.readableBytes)
        fields[.connection] = "close"
        fields[.xContentTypeOptions] = "nosniff"
        context.write(Self.wrapOutboundOut(.head(HTTPResponse(status: error.status, headerFields: fields))), promise: nil)
        if !isHead {
            context.write(Self.wrapOutboundOut(.body(body)), promise: nil)
        }
        let sent = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: sent)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        sent.futureResult.whenComplete { _ in bound.value.close(promise: nil) }
    }
}
