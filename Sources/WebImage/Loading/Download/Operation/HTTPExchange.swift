import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOPosix
import NIOHTTP1
import NIOSSL

/// The HTTP side of a ``DownloadOperation``, in one place: building the request of one
/// URL, following redirects, checking the response head, and receiving the body on the
/// event loop as it arrives, with no hop to a task per head or body part. The operation
/// keeps its callers, its phase and the decoding.
///
/// AsyncHTTPClient calls a delegate's methods one at a time, on the request's event loop,
/// and waits for the future each returns before the next; the mutable state below is only
/// touched there, which is why the class may be `@unchecked Sendable`.
final class HTTPExchange: HTTPClientResponseDelegate, @unchecked Sendable {
    /// How the exchange ended.
    enum Outcome: Sendable {
        /// The server redirected to this URL.
        case redirect(URL)
        /// The final response and its whole body.
        case response(DownloadResponseHead, Data)
    }

    /// What the response head said.
    private enum Head {
        case redirect(URL)
        /// A final response, with its `Content-Length` read once.
        case response(DownloadResponseHead, expectedLength: Int64?)
    }

    private let operation: DownloadOperation
    private let url: URL
    private var head: Head?
    private var body: ByteBuffer?
    /// The `Retry-After` header of a response refused for its status.
    private var retryAfter: String?
    /// The bytes an earlier attempt received, until a `206` continues them.
    private var resumed: ResumableBody?
    /// How many bytes of the downloader's resume budget this exchange holds.
    private let reservedBytes: Int
    /// When the request head was written, and when the response head arrived.
    private var requestSent: ContinuousClock.Instant?
    private var responseStart: ContinuousClock.Instant?
    /// The body bytes of the final response received by this exchange.
    private var bodyBytes = 0

    init(operation: DownloadOperation, url: URL, resuming resumed: ResumableBody? = nil) {
        self.operation = operation
        self.url = url
        self.resumed = resumed
        reservedBytes = resumed?.count ?? 0
    }

    func didSendRequestHead(task: HTTPClient.Task<Outcome>, _ head: HTTPRequestHead) {
        requestSent = .now
    }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        responseStart = .now
        operation.noteResponseHead()
        if operation.options.contains(.handleCookies) {
            operation.downloader.cookieStore.store(setCookieHeaders: head.headers["Set-Cookie"], from: url)
        }
        do throws(ImageError) {
            if let target = try redirectTarget(of: head) {
                self.head = .redirect(target)
            } else if resumed != nil, head.status.code == 416 {
                // The server refuses the range: a retry asks for the whole body.
                resumed = nil
                throw ImageError(.connectionLost, "the server refused to resume \(url.absoluteString)", statusCode: 416)
            } else {
                let response = try accept(head)
                if let resumed {
                    self.resumed = nil
                    try continueBody(resumed, with: response)
                } else {
                    self.head = .response(response, expectedLength: response.expectedContentLength)
                }
            }
            return task.eventLoop.makeSucceededVoidFuture()
        } catch {
            return task.eventLoop.makeFailedFuture(error)
        }
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Outcome>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        operation.noteActivity(receivedBytes: part.readableBytes)
        // A redirect's body is not kept.
        guard case .response(_, let expectedLength) = head else { return task.eventLoop.makeSucceededVoidFuture() }
        let limit = operation.downloader.configuration.maximumResponseSize
        bodyBytes += part.readableBytes
        let received = (body?.readableBytes ?? 0) + part.readableBytes
        guard received <= limit else {
            return task.eventLoop.makeFailedFuture(tooLarge)
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
            let data =
                body.map { body in
                    Data(buffer: body, byteTransferStrategy: body.readableBytes * 2 >= body.storageCapacity ? .noCopy : .copy)
                } ?? Data()
            return .response(response, data)
        case nil:
            throw ImageError(.badServerResponse, "the server sent no response for \(url.absoluteString)")
        }
    }

    /// Takes the answer to a request for the rest of `resumed`: a `206` whose
    /// `Content-Range` continues the kept bytes appends to them, under the response they
    /// belong to; any other answer starts over.
    private func continueBody(_ resumed: ResumableBody, with response: DownloadResponseHead) throws(ImageError) {
        guard response.statusCode == 206 else {
            head = .response(response, expectedLength: response.expectedContentLength)
            return
        }
        guard resumed.isContinued(by: response.headers.first(name: "Content-Range")) else {
            // Transient, so that a retry asks for the whole body again.
            throw ImageError(.connectionLost, "the server resumed \(url.absoluteString) at another offset than \(resumed.count)")
        }
        let total = resumed.totalLength ?? response.expectedContentLength.map { $0 + Int64(resumed.count) }
        head = .response(resumed.response, expectedLength: total)
        // The token and the metrics show the response the whole body belongs to, as the result does.
        operation.noteResponse(resumed.response)
        body = resumed.bytes
        operation.reportProgress(received: Int64(resumed.count), expected: total ?? -1, force: true)
    }

    /// The body received so far, when the response allows asking for the rest of it.
    private var resumableBody: ResumableBody? {
        // Bytes from an earlier attempt that no response continued yet stay worth keeping.
        guard case .response(let response, let expectedLength) = head else { return resumed }
        return ResumableBody(response: response, body: body, totalLength: expectedLength)
    }

    /// Sends `operation`'s request for `url` (the operation's URL or a redirect's target;
    /// `visited` holds the URLs asked for before) and follows redirects itself: non-HTTP
    /// schemes, loops and long chains are refused, and credentials are not sent to another
    /// origin. With `resumed` the request asks for the rest of those bytes only. The
    /// operation hears the end through ``DownloadOperation/transferDidEnd(with:)``.
    ///
    /// With an ``ImageDownloaderConfiguration/addressGate`` each URL is checked by the gate first
    /// and its connection made to the address the gate named, by a client of its own that
    /// resolves nothing (see ``pinnedClient(for:to:of:)``).
    static func send(for operation: DownloadOperation, to url: URL, visited: Set<String> = [], resuming resumed: ResumableBody? = nil) {
        guard let gate = operation.downloader.configuration.addressGate else {
            execute(for: operation, to: url, visited: visited, resuming: resumed, on: operation.downloader.client, isPinned: false)
            return
        }
        Task {
            let client: HTTPClient
            do throws(ImageError) {
                let address = try await gate.address(for: url)
                client = pinnedClient(for: url, to: address, of: operation.downloader)
            } catch {
                if let resumed {
                    operation.downloader.releaseResumableBytes(resumed.count)
                }
                operation.transferDidEnd(with: .failure(error))
                return
            }
            execute(for: operation, to: url, visited: visited, resuming: resumed, on: client, isPinned: true)
        }
    }

    /// A client whose connections to `url`'s host go to `address`, with the host kept for
    /// `Host`, TLS server name indication and certificate verification. It lives for one
    /// exchange.
    private static func pinnedClient(for url: URL, to address: String, of downloader: ImageDownloader) -> HTTPClient {
        var configuration = downloader.clientConfiguration
        if let host = url.host {
            let name = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if name != address {
                configuration.dnsOverride[host] = address
                configuration.dnsOverride[host.lowercased()] = address
            }
        }
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// Sends the request for `url` on `client` and follows what it answers (see
    /// ``send(for:to:visited:resuming:)``); a pinned client is shut down once the exchange ends.
    private static func execute(
        for operation: DownloadOperation, to url: URL, visited: Set<String>, resuming resumed: ResumableBody?, on client: HTTPClient, isPinned: Bool
    ) {
        let request: HTTPClient.Request
        do throws(ImageError) {
            request = try makeRequest(for: operation, to: url, resuming: resumed)
        } catch {
            if let resumed {
                operation.downloader.releaseResumableBytes(resumed.count)
            }
            if isPinned {
                _ = client.shutdown()
            }
            operation.transferDidEnd(with: .failure(error))
            return
        }
        let exchange = HTTPExchange(operation: operation, url: url, resuming: resumed)
        let task = client.execute(request: request, delegate: exchange, eventLoop: .indifferent)
        let isAbandoned = operation.state.withLockedValue { state in
            guard state.phase == .running else { return true }
            state.request = task
            return false
        }
        if isAbandoned {
            task.cancel()
        }
        task.futureResult.whenComplete { result in
            if isPinned {
                _ = client.shutdown()
            }
            // Bytes to resume follow a redirect, with their share of the budget.
            var carried: ResumableBody?
            var isRedirect = false
            if case .success(.redirect) = result {
                isRedirect = true
                swap(&carried, &exchange.resumed)
            }
            operation.recordExchange(
                requestSent: exchange.requestSent, responseStart: exchange.responseStart, bodyBytes: exchange.bodyBytes, isRedirect: isRedirect)
            if exchange.reservedBytes > (carried?.count ?? 0) {
                operation.downloader.releaseResumableBytes(exchange.reservedBytes - (carried?.count ?? 0))
            }
            switch result {
            case .success(.redirect(let next)):
                var visited = visited
                visited.insert(url.absoluteString)
                let maximum = operation.downloader.configuration.maximumRedirects
                guard visited.count <= maximum, visited.insert(next.absoluteString).inserted else {
                    operation.transferDidEnd(with: .failure(ImageError(.tooManyRedirects, "the redirects from \(operation.url.absoluteString) loop or exceed \(maximum)")))
                    return
                }
                send(for: operation, to: next, visited: visited, resuming: carried)
            case .success(.response(let response, let data)):
                operation.transferDidEnd(with: .success((response, data)))
            case .failure(let error):
                // On the request's event loop, where the exchange's state is kept.
                let error = ImageError(transportError: error, url: url)
                let retried = operation.scheduleRetry(after: error, retryAfter: exchange.retryAfter, resumable: exchange.resumableBody)
                guard !retried else { return }
                operation.transferDidEnd(with: .failure(error))
            }
        }
    }

    /// The request for `url` on behalf of `operation`: the downloader's headers, the
    /// caller's, validators or the range that resumes a body, cookies, the request modifier and credentials for the
    /// operation's own origin only.
    private static func makeRequest(for operation: DownloadOperation, to url: URL, resuming resumed: ResumableBody?) throws(ImageError) -> HTTPClient.Request {
        let downloader = operation.downloader
        let key = operation.key
        let options = operation.options
        let configuration = downloader.configuration
        var request = DownloadRequest(url: url, headers: downloader.requestHeaders())
        for (name, value) in key.headers.sorted(by: { $0.key < $1.key }) {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        if let validators = key.validators {
            if let eTag = validators.eTag {
                request.headers.replaceOrAdd(name: "If-None-Match", value: eTag)
            }
            if let lastModified = validators.lastModified {
                request.headers.replaceOrAdd(name: "If-Modified-Since", value: lastModified)
            }
        }
        if let resumed {
            // The kept bytes came with a 200: a conditional request has been answered.
            request.headers.remove(name: "If-None-Match")
            request.headers.remove(name: "If-Modified-Since")
            request.headers.replaceOrAdd(name: "Range", value: "bytes=\(resumed.count)-")
            request.headers.replaceOrAdd(name: "If-Range", value: resumed.validator)
        }
        if options.contains(.handleCookies), let cookies = downloader.cookieStore.cookieHeader(for: url) {
            request.headers.replaceOrAdd(name: "Cookie", value: cookies)
        }
        if let modifier = key.hooks.requestModifier {
            guard let modified = modifier.modified(request) else {
                throw ImageError(.refused, "the request modifier refused \(url.absoluteString)")
            }
            request = modified
        }
        if request.url == operation.url || origin(of: request.url) == origin(of: operation.url) {
            if let username = configuration.username, !request.headers.contains(name: "Authorization") {
                let token = Data("\(username):\(configuration.password ?? "")".utf8).base64EncodedString()
                request.headers.replaceOrAdd(name: "Authorization", value: "Basic \(token)")
            }
        } else {
            request.headers.remove(name: "Authorization")
        }
        var tls: TLSConfiguration?
        if options.contains(.allowInvalidSSLCertificates) {
            tls = TLSConfiguration.makeClientConfiguration()
            tls?.certificateVerification = .none
        }
        do {
            return try HTTPClient.Request(url: request.url, headers: request.headers, tlsConfiguration: tls)
        } catch {
            throw ImageError(transportError: error, url: request.url)
        }
    }

    /// Where the response head of `url` redirects to, or `nil` when it is not a redirect.
    private func redirectTarget(of head: HTTPResponseHead) throws(ImageError) -> URL? {
        guard [301, 302, 303, 307, 308].contains(Int(head.status.code)),
            let location = head.headers.first(name: "Location")
        else { return nil }
        guard let target = URL(string: location, relativeTo: url)?.absoluteURL else {
            throw ImageError(.invalidURL, "the redirect from \(url.absoluteString) names an unreadable location")
        }
        guard ["http", "https"].contains(target.scheme?.lowercased() ?? "") else {
            throw ImageError(.invalidURL, "the redirect from \(url.absoluteString) to a non-HTTP URL was refused")
        }
        return target
    }

    /// Checks the final response head: the response modifier, the status and the content
    /// type and length. Announces the response to observers.
    private func accept(_ head: HTTPResponseHead) throws(ImageError) -> DownloadResponseHead {
        let downloader = operation.downloader
        let configuration = downloader.configuration
        var response = DownloadResponseHead(statusCode: Int(head.status.code), headers: head.headers, url: url)
        if let modifier = operation.key.hooks.responseModifier {
            guard let modified = modifier.modified(response) else {
                throw ImageError(.badServerResponse, "the response modifier refused the response of \(url.absoluteString)", response: response.errorResponse)
            }
            response = modified
        }
        operation.noteResponse(response)
        downloader.emit(.responseReceived(operation.url, response))
        guard response.statusCode != 304 else { return response }
        guard configuration.acceptableStatusCodes.contains(response.statusCode) else {
            retryAfter = response.headers.first(name: "Retry-After")
            throw ImageError(.invalidStatusCode, "the server answered \(response.statusCode) for \(url.absoluteString)", response: response.errorResponse)
        }
        if let acceptable = configuration.acceptableContentTypes, !acceptable.contains(response.mimeType ?? "") {
            throw ImageError(.badContentType, "the content type \(response.contentType ?? "(none)") of \(url.absoluteString) is not acceptable", response: response.errorResponse)
        }
        if let expected = response.expectedContentLength, expected > configuration.maximumResponseSize {
            throw tooLarge
        }
        operation.reportProgress(received: 0, expected: response.expectedContentLength ?? -1, force: true)
        return response
    }

    private var tooLarge: ImageError {
        ImageError(.responseTooLarge, "the response of \(url.absoluteString) is larger than \(operation.downloader.configuration.maximumResponseSize) bytes")
    }

    /// The scheme, host and port of `url`, which decide whether credentials may go to it.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
