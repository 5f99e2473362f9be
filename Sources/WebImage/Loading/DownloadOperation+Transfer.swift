import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

extension DownloadOperation {
    /// Sends the request for `url` (the operation's URL or a redirect's target; `visited`
    /// holds the URLs asked for before) and follows redirects itself: non-HTTP schemes,
    /// loops and long chains are refused, and credentials are not sent to another origin.
    func send(to url: URL, visited: Set<String>) {
        let request: HTTPClient.Request
        do throws(ImageError) {
            request = try makeRequest(for: url)
        } catch {
            transferDidEnd(with: .failure(error))
            return
        }
        let task = downloader.client.execute(request: request, delegate: DownloadTransfer(operation: self, url: url), eventLoop: .indifferent)
        let isAbandoned = state.withLockedValue { state in
            guard state.phase == .running else { return true }
            state.request = task
            return false
        }
        if isAbandoned {
            task.cancel()
        }
        task.futureResult.whenComplete { result in
            switch result {
            case .success(.redirect(let next)):
                var visited = visited
                visited.insert(url.absoluteString)
                let maximum = self.downloader.config.maximumRedirects
                guard visited.count <= maximum, visited.insert(next.absoluteString).inserted else {
                    self.transferDidEnd(with: .failure(ImageError(.tooManyRedirects, "the redirects from \(self.url.absoluteString) loop or exceed \(maximum)")))
                    return
                }
                self.send(to: next, visited: visited)
            case .success(.response(let response, let data)):
                self.transferDidEnd(with: .success((response, data)))
            case .failure(let error):
                self.transferDidEnd(with: .failure(ImageError(transportError: error, url: url)))
            }
        }
    }

    private func makeRequest(for url: URL) throws(ImageError) -> HTTPClient.Request {
        let config = downloader.config
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
        if options.contains(.handleCookies), let cookies = downloader.cookieStore.cookieHeader(for: url) {
            request.headers.replaceOrAdd(name: "Cookie", value: cookies)
        }
        if let modifier = config.requestModifier {
            guard let modified = modifier(request) else {
                throw ImageError(.refused, "the request modifier refused \(url.absoluteString)")
            }
            request = modified
        }
        if request.url == self.url || Self.origin(of: request.url) == Self.origin(of: self.url) {
            if let username = config.username, !request.headers.contains(name: "Authorization") {
                let token = Data("\(username):\(config.password ?? "")".utf8).base64EncodedString()
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
    func redirectTarget(of head: HTTPResponseHead, from url: URL) throws(ImageError) -> URL? {
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

    /// Checks the final response head of `url`: the response modifier, the status and the
    /// content type and length. Announces the response to observers.
    func accept(_ head: HTTPResponseHead, from url: URL) throws(ImageError) -> DownloadResponse {
        let config = downloader.config
        var response = DownloadResponse(statusCode: Int(head.status.code), headers: head.headers, url: url)
        if let modifier = config.responseModifier {
            guard let modified = modifier(response) else {
                throw ImageError(.badServerResponse, "the response modifier refused the response of \(url.absoluteString)", statusCode: response.statusCode)
            }
            response = modified
        }
        downloader.emit(.responseReceived(self.url, response))
        guard response.statusCode != 304 else { return response }
        guard config.acceptableStatusCodes.contains(response.statusCode) else {
            throw ImageError(.badServerResponse, "the server answered \(response.statusCode) for \(url.absoluteString)", statusCode: response.statusCode)
        }
        if let acceptable = config.acceptableContentTypes, !acceptable.contains(response.mimeType ?? "") {
            throw ImageError(.badContentType, "the content type \(response.contentType ?? "(none)") of \(url.absoluteString) is not acceptable")
        }
        if let expected = response.expectedContentLength, expected > config.maximumResponseSize {
            throw tooLarge(url)
        }
        reportProgress(received: 0, expected: response.expectedContentLength ?? -1, force: true)
        return response
    }

    func tooLarge(_ url: URL) -> ImageError {
        ImageError(.responseTooLarge, "the response of \(url.absoluteString) is larger than \(downloader.config.maximumResponseSize) bytes")
    }

    /// Tells the callers that want progress how much arrived, unless too little arrived
    /// since the last report (see ``ImageDownloaderConfig/minimumProgressInterval``).
    func reportProgress(received: Int64, expected: Int64, force: Bool) {
        let interval = min(max(downloader.config.minimumProgressInterval, 0), 1)
        let throttled = !force && interval > 0 && expected > 0 && received < expected
        let handlers = state.withLockedValue { state -> [DownloadHandler] in
            // Most callers want no progress: then nothing is allocated per chunk.
            guard state.handlers.values.contains(where: { $0.request.progress != nil }) else { return [] }
            if throttled {
                guard Double(received - state.lastReportedBytes) / Double(expected) >= interval else { return [] }
                state.lastReportedBytes = received
            }
            return state.handlers.values.filter { $0.request.progress != nil }
        }
        for handler in handlers {
            handler.reportProgress(received: received, expected: expected)
        }
    }

    /// Starts a partial decode of the bytes so far, unless one is already pending.
    func schedulePartialDecode(of body: ByteBuffer) {
        let coders = downloader.config.coders
        state.withLockedValue { state in
            guard !state.isDecodingPartial, state.handlers.values.contains(where: \.wantsPartialImages) else { return }
            let optionsSet = Set(state.handlers.values.filter(\.wantsPartialImages).map {
                effectiveDecodeOptions(for: $0.request, partial: true)
            })
            state.isDecodingPartial = true
            let data = Data(buffer: body)
            let previous = state.partialDecode
            state.partialDecode = Task {
                await previous?.value
                var images: [ImageDecodeOptions: Image] = [:]
                for options in optionsSet {
                    images[options] = try? await DecodingWorkers.run { () throws(ImageError) -> Image? in
                        try coders.decodeIncrementally(data, isComplete: false, options: options)
                    }
                }
                let handlers = self.state.withLockedValue { state in
                    state.isDecodingPartial = false
                    return Array(state.handlers.values)
                }
                for handler in handlers where handler.wantsPartialImages {
                    if let image = images[self.effectiveDecodeOptions(for: handler.request, partial: true)] {
                        handler.deliverPartial(image)
                    }
                }
            }
        }
    }

    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
