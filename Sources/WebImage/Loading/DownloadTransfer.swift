import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// One HTTP exchange of a ``DownloadOperation``: the response of one URL, received on the
/// event loop as it arrives, with no hop to a task per head or body part.
///
/// AsyncHTTPClient calls a delegate's methods one at a time, on the request's event loop,
/// and waits for the future each returns before the next; the mutable state below is only
/// touched there, which is why the class may be `@unchecked Sendable`.
final class DownloadTransfer: HTTPClientResponseDelegate, @unchecked Sendable {
    /// How the exchange ended.
    enum Outcome: Sendable {
        /// The server redirected to this URL.
        case redirect(URL)
        /// The final response and its whole body.
        case response(DownloadResponse, Data)
    }

    /// What the response head said.
    private enum Head {
        case redirect(URL)
        /// A final response, with its `Content-Length` read once.
        case response(DownloadResponse, expectedLength: Int64?)
    }

    private let operation: DownloadOperation
    private let url: URL
    private var head: Head?
    private var body: ByteBuffer?

    init(operation: DownloadOperation, url: URL) {
        self.operation = operation
        self.url = url
    }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        operation.noteActivity()
        if operation.options.contains(.handleCookies) {
            operation.downloader.cookieStore.store(setCookieHeaders: head.headers["Set-Cookie"], from: url)
        }
        do throws(ImageError) {
            if let target = try operation.redirectTarget(of: head, from: url) {
                self.head = .redirect(target)
            } else {
                let response = try operation.accept(head, from: url)
                self.head = .response(response, expectedLength: response.expectedContentLength)
            }
            return task.eventLoop.makeSucceededVoidFuture()
        } catch {
            return task.eventLoop.makeFailedFuture(error)
        }
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Outcome>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        operation.noteActivity()
        // A redirect's body is not kept.
        guard case .response(_, let expectedLength) = head else { return task.eventLoop.makeSucceededVoidFuture() }
        let limit = operation.downloader.config.maximumResponseSize
        let received = (body?.readableBytes ?? 0) + part.readableBytes
        guard received <= limit else {
            return task.eventLoop.makeFailedFuture(operation.tooLarge(url))
        }
        if body == nil {
            // The first part is kept as it came; later ones are appended to it, in storage
            // sized for the body: one reallocation at most when the length is known.
            body = part
        } else {
            body!.reserveCapacity(minimumWritableBytes: max(part.readableBytes, Int(expectedLength ?? 0) - body!.readableBytes))
            body!.writeImmutableBuffer(part)
        }
        operation.reportProgress(received: Int64(received), expected: expectedLength ?? -1, force: false)
        operation.schedulePartialDecode(of: body!)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Outcome>) throws -> Outcome {
        switch head {
        case .redirect(let target):
            return .redirect(target)
        case .response(let response, _):
            // A body that fills at least half of its storage becomes `Data` without a copy
            // (on loopback, nearly every 50 KB body arrives in one read buffer). A small body
            // in a large read buffer is copied, so that its `Data` does not keep the buffer
            // alive.
            let data = body.map { body in
                Data(buffer: body, byteTransferStrategy: body.readableBytes * 2 >= body.storageCapacity ? .noCopy : .copy)
            } ?? Data()
            return .response(response, data)
        case nil:
            throw ImageError(.badServerResponse, "the server sent no response for \(url.absoluteString)")
        }
    }
}
