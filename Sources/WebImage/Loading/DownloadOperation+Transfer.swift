import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL

extension DownloadOperation {
    /// Sends the request, follows redirects itself (refusing non-HTTP schemes, loops and
    /// long chains, and dropping credentials across origins) and streams the body.
    func transfer() async throws(ImageError) -> (DownloadResponse, Data) {
        let config = downloader.config
        var currentURL = url
        var visited: Set<String> = []
        downloader.emit(.started(url))
        while true {
            let request = try makeRequest(for: currentURL)
            let response: HTTPClientResponse
            do {
                response = try await downloader.client.execute(request, deadline: .distantFuture)
            } catch {
                throw ImageError(transportError: error, url: currentURL)
            }
            noteActivity()
            if options.contains(.handleCookies) {
                downloader.cookieStore.store(setCookieHeaders: response.headers["Set-Cookie"], from: currentURL)
            }
            if let next = try redirectTarget(of: response, from: currentURL) {
                visited.insert(currentURL.absoluteString)
                guard visited.count <= config.maximumRedirects, visited.insert(next.absoluteString).inserted else {
                    throw ImageError(.tooManyRedirects, "the redirects from \(url.absoluteString) loop or exceed \(config.maximumRedirects)")
                }
                _ = try? await response.body.collect(upTo: 64 << 10)
                currentURL = next
                continue
            }
            return try await receive(response, from: currentURL)
        }
    }

    private func makeRequest(for url: URL) throws(ImageError) -> HTTPClientRequest {
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
        var clientRequest = HTTPClientRequest(url: request.url.absoluteString)
        clientRequest.headers = request.headers
        if options.contains(.allowInvalidSSLCertificates) {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            clientRequest.tlsConfiguration = tls
        }
        return clientRequest
    }

    private func redirectTarget(of response: HTTPClientResponse, from url: URL) throws(ImageError) -> URL? {
        guard [301, 302, 303, 307, 308].contains(Int(response.status.code)),
              let location = response.headers.first(name: "Location")
        else { return nil }
        guard let target = URL(string: location, relativeTo: url)?.absoluteURL else {
            throw ImageError(.invalidURL, "the redirect from \(url.absoluteString) names an unreadable location")
        }
        guard ["http", "https"].contains(target.scheme?.lowercased() ?? "") else {
            throw ImageError(.invalidURL, "the redirect from \(url.absoluteString) to a non-HTTP URL was refused")
        }
        return target
    }

    /// Checks the response head, then streams the body under the size cap.
    private func receive(_ response: HTTPClientResponse, from url: URL) async throws(ImageError) -> (DownloadResponse, Data) {
        let config = downloader.config
        var head = DownloadResponse(statusCode: Int(response.status.code), headers: response.headers, url: url)
        if let modifier = config.responseModifier {
            guard let modified = modifier(head) else {
                throw ImageError(.badServerResponse, "the response modifier refused the response of \(url.absoluteString)", statusCode: head.statusCode)
            }
            head = modified
        }
        downloader.emit(.responseReceived(self.url, head))
        if head.statusCode == 304 {
            return (head, Data())
        }
        guard config.acceptableStatusCodes.contains(head.statusCode) else {
            throw ImageError(.badServerResponse, "the server answered \(head.statusCode) for \(url.absoluteString)", statusCode: head.statusCode)
        }
        if let acceptable = config.acceptableContentTypes, !acceptable.contains(head.mimeType ?? "") {
            throw ImageError(.badContentType, "the content type \(head.contentType ?? "(none)") of \(url.absoluteString) is not acceptable")
        }
        let expected = head.expectedContentLength
        if let expected, expected > config.maximumResponseSize {
            throw tooLarge(url)
        }
        reportProgress(received: 0, expected: expected ?? -1, force: true)
        // The first chunk is kept as it came and later ones are appended to it, in storage
        // sized for the body.
        var body: ByteBuffer?
        do {
            for try await chunk in response.body {
                noteActivity()
                let received = (body?.readableBytes ?? 0) + chunk.readableBytes
                guard received <= config.maximumResponseSize else {
                    throw tooLarge(url)
                }
                if body == nil {
                    body = chunk
                } else {
                    // Room for the rest of a body of known length: one reallocation at most.
                    body!.reserveCapacity(minimumWritableBytes: max(chunk.readableBytes, Int(expected ?? 0) - body!.readableBytes))
                    body!.writeImmutableBuffer(chunk)
                }
                reportProgress(received: Int64(received), expected: expected ?? -1, force: false)
                schedulePartialDecode(of: body!)
            }
        } catch let error as ImageError {
            throw error
        } catch {
            throw ImageError(transportError: error, url: url)
        }
        // A body that fills at least half of its storage becomes `Data` without a copy (on
        // loopback, nearly every 50 KB body arrives in one read buffer). A small body in a
        // large read buffer is copied, so that its `Data` does not keep the buffer alive.
        let data = body.map { body in
            Data(buffer: body, byteTransferStrategy: body.readableBytes * 2 >= body.storageCapacity ? .noCopy : .copy)
        } ?? Data()
        return (head, data)
    }

    private func tooLarge(_ url: URL) -> ImageError {
        ImageError(.responseTooLarge, "the response of \(url.absoluteString) is larger than \(downloader.config.maximumResponseSize) bytes")
    }

    /// Tells the callers that want progress how much arrived, unless too little arrived
    /// since the last report (see ``ImageDownloaderConfig/minimumProgressInterval``).
    private func reportProgress(received: Int64, expected: Int64, force: Bool) {
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
    private func schedulePartialDecode(of body: ByteBuffer) {
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
