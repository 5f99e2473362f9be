import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageDownloader hooks: modifiers, decryptor, acceptable responses, the token's response")
struct ImageDownloaderHooksTests {
    /// The raw test image of 4 × 3 pixels, Base64-encoded with a line break in the middle.
    static let base64Body: [UInt8] = {
        let text = Data(RawRGBATestCoder.encode(width: 4, height: 3)).base64EncodedString()
        let middle = text.index(text.startIndex, offsetBy: text.count / 2)
        return Array((text[..<middle] + "\r\n" + text[middle...]).utf8)
    }()

    @Test func theBase64DecryptorTurnsABase64BodyIntoAnImage() async throws {
        try await withDownloader(configure: { $0.decryptor = .base64 }) { server, downloader, _ in
            server.route("/b64") { _, response in await response.respond(headers: [("Content-Type", "text/plain")], body: Self.base64Body) }
            let result = try await downloader.image(from: server.url(for: "/b64"))
            #expect(result.image?.pixelWidth == 4)
            #expect(result.image?.pixelHeight == 3)
            #expect(result.data == Data(RawRGBATestCoder.encode(width: 4, height: 3)), "callers get the decrypted bytes")
            #expect(result.metrics?.bytesReceived == Self.base64Body.count, "the metrics count the bytes on the wire")
        }
    }

    @Test func aDecryptorReturningNilFailsWithBadImageData() async throws {
        try await withDownloader(configure: { $0.decryptor = DownloadDecryptor { _, _ in nil } }) { server, downloader, _ in
            server.route("/x") { _, response in await response.respondWithRawImage() }
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/x")) }
            #expect(error?.code == .badImageData)
            // The bytes-only callers are refused too: they would get undecryptable bytes.
            let data = await capturedError { () async throws(ImageError) in try await downloader.data(from: server.url(for: "/x")) }
            #expect(data?.code == .badImageData)
        }
    }

    @Test func aResponseModifierTurnsA404IntoAnImage() async throws {
        try await withDownloader(configure: { $0.responseModifier = DownloadResponseModifier(statusCode: 200) }) { server, downloader, _ in
            server.route("/missing") { _, response in
                await response.respond(status: 404, headers: [("Content-Type", "image/x-raw")], body: RawRGBATestCoder.encode(width: 4, height: 3))
            }
            let result = try await downloader.image(from: server.url(for: "/missing"))
            #expect(result.image?.pixelWidth == 4)
            #expect(result.response?.statusCode == 200)
            #expect(result.metrics?.statusCode == 200, "the metrics show the status as modified")
        }
    }

    @Test func aResponseModifierTurnsA200IntoInvalidStatusCode() async throws {
        try await withDownloader(configure: { $0.responseModifier = DownloadResponseModifier(statusCode: 404) }) { server, downloader, _ in
            server.route("/fine") { _, response in await response.respondWithRawImage(headers: [("X-Origin", "loopback")]) }
            let error = try #require(await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/fine")) })
            #expect(error.code == .invalidStatusCode)
            #expect(error.statusCode == 404)
            #expect(error.response?.statusCode == 404)
            #expect(error.response?.value(forHeader: "x-origin") == "loopback")
            #expect(error.response?.url == server.url(for: "/fine").absoluteString)
        }
    }

    @Test func aResponseModifierReturningNilFailsWithTheResponse() async throws {
        try await withDownloader(configure: { $0.responseModifier = DownloadResponseModifier { _ in nil } }) { server, downloader, _ in
            server.route("/x") { _, response in await response.respondWithRawImage() }
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/x")) }
            #expect(error?.code == .badServerResponse)
            #expect(error?.response?.statusCode == 200)
        }
    }

    @Test func anUnacceptableContentTypeFailsCarryingTheResponse() async throws {
        try await withDownloader(configure: { $0.acceptableContentTypes = ["image/png"] }) { server, downloader, _ in
            server.route("/raw") { _, response in await response.respondWithRawImage(headers: [("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")]) }
            let error = try #require(await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/raw")) })
            #expect(error.code == .badContentType)
            #expect(error.statusCode == 200)
            #expect(error.response?.value(forHeader: "Content-Type") == "image/x-raw")
            #expect(error.response?.value(forHeader: "set-cookie") == "a=1, b=2", "a repeated header keeps every value")
        }
    }

    @Test func theHeaderShortcutsSetRequestAndResponseHeaders() async throws {
        try await withDownloader(configure: { configuration in
            configuration.acceptableContentTypes = ["image/x-raw"]
            configuration.requestModifier = DownloadRequestModifier(headers: ["X-Client": "hooks", "Accept": "image/x-raw"])
            configuration.responseModifier = DownloadResponseModifier(headers: ["Content-Type": "image/x-raw"])
        }) { server, downloader, _ in
            server.route("/untyped") { _, response in
                await response.respond(headers: [("Content-Type", "application/octet-stream")], body: RawRGBATestCoder.encode(width: 2, height: 2))
            }
            let result = try await downloader.image(from: server.url(for: "/untyped"))
            #expect(result.image?.pixelWidth == 2)
            #expect(result.response?.mimeType == "image/x-raw")
            let request = try #require(server.requests.first)
            #expect(request.header("X-Client") == "hooks")
            #expect(request.header("Accept") == "image/x-raw")
        }
    }

    @Test func perRequestHooksOverrideTheDownloaders() async throws {
        try await withDownloader(configure: { configuration in
            configuration.requestModifier = DownloadRequestModifier(headers: ["X-Hook": "downloader"])
            configuration.responseModifier = DownloadResponseModifier(statusCode: 500)
            configuration.decryptor = DownloadDecryptor { _, _ in nil }
        }) { server, downloader, _ in
            server.route("/b64") { _, response in await response.respond(body: Self.base64Body) }
            var request = ImageLoadRequest(url: server.url(for: "/b64"))
            request.requestModifier = DownloadRequestModifier(headers: ["X-Hook": "request"])
            request.responseModifier = DownloadResponseModifier(statusCode: 200)
            request.decryptor = .base64
            let result = try await downloader.image(for: request)
            #expect(result.image?.pixelWidth == 4)
            #expect(server.requests.last?.header("X-Hook") == "request")

            // A request that sets none runs the downloader's.
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/b64")) }
            #expect(error?.code == .invalidStatusCode)
            #expect(error?.statusCode == 500)
            #expect(server.requests.last?.header("X-Hook") == "downloader")
        }
    }

    @Test func requestsWithDifferentHooksDoNotShareATransfer() async throws {
        try await withDownloader { server, downloader, _ in
            let gate = LoopbackGate()
            server.route("/shared") { _, response in
                await gate.wait()
                await response.respondWithRawImage()
            }
            let url = server.url(for: "/shared")
            let modifier = DownloadRequestModifier(headers: ["X-Hook": "one"])
            var first = ImageLoadRequest(url: url)
            first.requestModifier = modifier
            var same = ImageLoadRequest(url: url)
            same.requestModifier = modifier
            var other = ImageLoadRequest(url: url)
            other.requestModifier = DownloadRequestModifier(headers: ["X-Hook": "two"])
            let collector = DownloadResultCollector()
            for request in [first, same, other] {
                downloader.downloadImage(with: request, completion: collector.record)
            }
            #expect(await eventually { server.requests.count == 2 })
            gate.open()
            try await collector.wait(for: 3)
            #expect(collector.images.count == 3)
            #expect(server.requests.count == 2, "the same modifier instance shares a transfer; another does not")
            #expect(Set(server.requests.compactMap { $0.header("X-Hook") }) == ["one", "two"])
        }
    }

    @Test func aManagerRequestsHooksReachTheDownloaderAndTheCacheKeepsTheDecryptedBytes() async throws {
        try await ManagerTestHarness.run { harness in
            let png = try ManagerTestImage.png()
            harness.serve("/encoded.png", Data(png.base64EncodedString().utf8), headers: [("Content-Type", "text/plain")])
            var request = ImageRequest(url: harness.url("/encoded.png"))
            request.decryptor = .base64
            request.requestModifier = DownloadRequestModifier(headers: ["X-Hook": "manager"])
            request.responseModifier = DownloadResponseModifier(headers: ["Content-Type": "image/png"])
            let response = try await harness.manager.image(for: request)
            #expect(response.image?.pixelWidth == 8)
            #expect(response.data == png)
            #expect(harness.server.requests.first?.header("X-Hook") == "manager")
            let stored = try await harness.makeCache().image(forKey: harness.url("/encoded.png").absoluteString, scope: .disk)
            #expect(stored?.data == png, "the disk holds the decrypted bytes")
        }
    }

    @Test func theTokenShowsTheResponseHeadOnceItArrives() async throws {
        try await withDownloader { server, downloader, _ in
            let head = LoopbackGate()
            let rest = LoopbackGate()
            let body = RawRGBATestCoder.encode(width: 4, height: 3)
            server.route("/slow") { _, response in
                await head.wait()
                await response.writeHead(status: 200, headers: [("Content-Type", "image/x-raw"), ("Content-Length", "\(body.count)"), ("ETag", "\"t1\"")])
                await response.writeBody(body.prefix(4))
                await rest.wait()
                await response.writeBody(body.dropFirst(4))
                await response.end()
            }
            let collector = DownloadResultCollector()
            let token = downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: "/slow")), completion: collector.record)
            #expect(await eventually { !server.requests.isEmpty })
            #expect(token.response == nil, "no head has arrived yet")
            head.open()
            #expect(await eventually { token.response != nil })
            #expect(collector.results.isEmpty, "the head is there before the body ends")
            #expect(token.response?.statusCode == 200)
            #expect(token.response?.eTag == "\"t1\"")
            rest.open()
            try await collector.wait(for: 1)
            #expect(collector.images.count == 1)
            #expect(token.response?.url == server.url(for: "/slow"))
        }
    }
}
