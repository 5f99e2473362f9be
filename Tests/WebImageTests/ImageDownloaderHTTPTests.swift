import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageDownloader HTTP rules")
struct ImageDownloaderHTTPTests {
    @Test func badStatusCarriesTheCode() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/missing") { _, response in await response.respond(status: 404, body: Array("no".utf8)) }
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/missing")) }
            #expect(error?.code == .invalidStatusCode)
            #expect(error?.statusCode == 404)
        }
    }

    @Test func unacceptableContentTypeFails() async throws {
        try await withDownloader(configure: { $0.acceptableContentTypes = ["image/png"] }) { server, downloader, _ in
            server.route("/page") { _, response in await response.respondWithRawImage(headers: []) }
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/page")) }
            #expect(error?.code == .badContentType)
        }
    }

    @Test func emptyAndUndecodableBodiesFail() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/empty") { _, response in await response.respond() }
            server.route("/junk") { _, response in await response.respond(body: Array("not an image".utf8)) }
            let empty = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/empty")) }
            let junk = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/junk")) }
            #expect(empty?.code == .emptyData)
            #expect(junk?.code == .badImageData)
        }
    }

    @Test func validatorsTurnAnUnchangedImageIntoNotModified() async throws {
        try await withDownloader { server, downloader, coder in
            server.route("/etag.raw") { request, response in
                if request.header("If-None-Match") == "\"v1\"" {
                    await response.respond(status: 304, headers: [("ETag", "\"v1\"")])
                } else {
                    await response.respondWithRawImage(headers: [("ETag", "\"v1\"")])
                }
            }
            server.route("/date.raw") { request, response in
                let stamp = "Wed, 21 Oct 2026 07:28:00 GMT"
                if request.header("If-Modified-Since") == stamp {
                    await response.respond(status: 304)
                } else {
                    await response.respondWithRawImage(headers: [("Last-Modified", stamp)])
                }
            }
            for path in ["/etag.raw", "/date.raw"] {
                let url = server.url(for: path)
                let first = try await downloader.image(from: url)
                let validators = try #require(first.response?.validators)
                #expect(!validators.isEmpty)
                let second = try await downloader.image(from: url, validators: validators)
                #expect(second.isNotModified)
                #expect(second.image == nil)
                #expect(second.response?.statusCode == 304)
            }
            let changed = try await downloader.image(from: server.url(for: "/etag.raw"), validators: HTTPValidators(eTag: "\"v0\""))
            #expect(!changed.isNotModified)
            #expect(changed.image != nil)
            #expect(coder.fullDecodeCount == 3)
        }
    }

    @Test func selfSignedHTTPSIsRefusedUnlessAllowed() async throws {
        let certificate = try await SelfSignedCertificate()
        try await withDownloader(tls: try certificate.identity()) { server, downloader, _ in
            server.route("/secure.raw") { _, response in await response.respondWithRawImage() }
            let url = server.url(for: "/secure.raw")
            #expect(url.scheme == "https")
            let refused = await capturedError { () async throws(ImageError) in try await downloader.image(from: url) }
            #expect(refused?.code == .tlsFailure)
            let accepted = try await downloader.image(from: url, options: .allowInvalidSSLCertificates)
            #expect(accepted.image?.pixelWidth == 4)
        }
    }

    @Test func cookiesMakeTheRoundTrip() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/login") { _, response in
                await response.respondWithRawImage(headers: [("Set-Cookie", "session=abc123; Path=/; HttpOnly")])
            }
            server.route("/private.raw") { request, response in
                if request.header("Cookie") == "session=abc123" {
                    await response.respondWithRawImage()
                } else {
                    await response.respond(status: 403)
                }
            }
            let privateURL = server.url(for: "/private.raw")
            let withoutCookie = await capturedError { () async throws(ImageError) in
                try await downloader.image(from: privateURL, options: .handleCookies)
            }
            #expect(withoutCookie?.statusCode == 403)
            _ = try await downloader.image(from: server.url(for: "/login"), options: .handleCookies)
            #expect(downloader.cookieStore.count == 1)
            let result = try await downloader.image(from: privateURL, options: .handleCookies)
            #expect(result.image != nil)
            let ignored = await capturedError { () async throws(ImageError) in try await downloader.image(from: privateURL) }
            #expect(ignored?.statusCode == 403)
        }
    }

    @Test func basicAuthenticationUsesTheCredentials() async throws {
        let expected = "Basic " + Data("user:secret".utf8).base64EncodedString()
        let route: LoopbackHTTPServer.Route = { request, response in
            if request.header("Authorization") == expected {
                await response.respondWithRawImage()
            } else {
                await response.respond(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"images\"")])
            }
        }
        try await withDownloader(configure: {
            $0.username = "user"
            $0.password = "secret"
        }) { server, downloader, _ in
            server.route("/auth.raw", route)
            let result = try await downloader.image(from: server.url(for: "/auth.raw"))
            #expect(result.image != nil)
        }
        try await withDownloader { server, downloader, _ in
            server.route("/auth.raw", route)
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/auth.raw")) }
            #expect(error?.statusCode == 401)
        }
    }

    @Test func aStallingServerTimesOut() async throws {
        try await withDownloader(configure: { $0.downloadTimeout = 0.2 }) { server, downloader, _ in
            let gate = LoopbackGate()
            server.route("/stall") { _, response in
                await gate.wait()
                await response.respondWithRawImage()
            }
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/stall")) }
            #expect(error?.code == .timedOut)
            gate.open()
        }
    }

    @Test func aBodyThatStallsMidwayTimesOut() async throws {
        try await withDownloader(configure: { $0.downloadTimeout = 0.3 }) { server, downloader, _ in
            let gate = LoopbackGate()
            server.route("/stall-body") { _, response in
                await response.writeHead(status: 200, headers: [("Content-Length", "1000")])
                await response.writeBody([UInt8](repeating: 9, count: 100))
                await gate.wait()
                await response.dropConnection()
            }
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/stall-body")) }
            #expect(error?.code == .timedOut)
            gate.open()
        }
    }

    @Test func aSlowButSteadyBodyOutlastsTheTimeout() async throws {
        // The timeout bounds silence, not the whole download: twelve pieces take longer
        // than the timeout in all, while each gap is a tenth of it, so even a starved run
        // (a gap stretched tenfold) keeps every silence within the bound.
        let gap = Duration.milliseconds(500)
        try await withDownloader(configure: { $0.downloadTimeout = 5 }) { server, downloader, _ in
            server.route("/steady") { _, response in
                await response.writeHead(status: 200, headers: [("Content-Length", "1200")])
                for _ in 0..<12 {
                    try? await Task.sleep(for: gap)
                    await response.writeBody([UInt8](repeating: 7, count: 100))
                }
                await response.end()
            }
            let started = ContinuousClock.now
            let result = try await downloader.data(from: server.url(for: "/steady"))
            #expect(result.data == Data(repeating: 7, count: 1200))
            #expect(ContinuousClock.now - started > .seconds(5), "the whole download outlasted the timeout")
        }
    }

    @Test func aDroppedConnectionIsConnectionLost() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/drop") { _, response in
                await response.writeHead(status: 200, headers: [("Content-Length", "1000")])
                await response.writeBody([UInt8](repeating: 9, count: 100))
                await response.dropConnection()
            }
            server.route("/drop-chunked") { _, response in
                await response.writeHead(status: 200)
                await response.writeBody([UInt8](repeating: 9, count: 100))
                await response.dropConnection()
            }
            for path in ["/drop", "/drop-chunked"] {
                let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: path)) }
                #expect(error?.code == .connectionLost, "\(path): \(String(describing: error))")
            }
        }
    }

    @Test func aClosedPortCannotConnect() async throws {
        // A stopped server's port could be taken at once by another test's server.
        let closed = try RefusingPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(closed.port)/gone"))
        let downloader = ImageDownloader()
        let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: url) }
        try await downloader.shutdown()
        #expect(error?.code == .cannotConnect)
        withExtendedLifetime(closed) {}
    }

    @Test func anUnknownHostCannotBeFound() async throws {
        try await withDownloader(configure: { $0.downloadTimeout = 60 }) { _, downloader, _ in
            let url = URL(string: "http://no-such-host.invalid/a.png")!
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: url) }
            #expect(error?.code == .cannotFindHost, "\(String(describing: error))")
        }
    }

    @Test func oversizedBodiesAreCutOff() async throws {
        try await withDownloader(configure: { $0.maximumResponseSize = 1000 }) { server, downloader, _ in
            let gate = LoopbackGate()
            server.route("/declared") { _, response in
                await response.respond(body: [UInt8](repeating: 1, count: 5000))
            }
            server.route("/streamed") { _, response in
                await response.writeHead(status: 200)
                for _ in 0..<3 {
                    await response.writeBody([UInt8](repeating: 1, count: 600))
                }
                await gate.wait()
                await response.end()
            }
            for path in ["/declared", "/streamed"] {
                let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: path)) }
                #expect(error?.code == .responseTooLarge, "\(path)")
            }
            try await server.waitForConnectionsAbortedByClient(count: 1)
            gate.open()
        }
    }

    @Test func redirectsAreFollowedWithinTheRules() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/img.raw") { _, response in await response.respondWithRawImage() }
            server.route("/moved") { _, response in await response.respond(status: 302, headers: [("Location", "/img.raw")]) }
            server.route("/loop1") { _, response in await response.respond(status: 301, headers: [("Location", "/loop2")]) }
            server.route("/loop2") { _, response in await response.respond(status: 307, headers: [("Location", "/loop1")]) }
            server.route("/to-file") { _, response in await response.respond(status: 302, headers: [("Location", "file:///etc/passwd")]) }
            let moved = try await downloader.image(from: server.url(for: "/moved"))
            #expect(moved.image != nil)
            #expect(moved.response?.url.path == "/img.raw")
            let loop = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/loop1")) }
            #expect(loop?.code == .tooManyRedirects)
            let file = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/to-file")) }
            #expect(file?.code == .invalidURL)
        }
    }

    @Test func credentialsStayWithTheirOrigin() async throws {
        let other = try await LoopbackHTTPServer.start()
        other.route("/peek.raw") { _, response in await response.respondWithRawImage() }
        try await withDownloader(configure: {
            $0.username = "user"
            $0.password = "secret"
        }) { server, downloader, _ in
            let away = other.url(for: "/peek.raw").absoluteString
            server.route("/away") { _, response in await response.respond(status: 302, headers: [("Location", away)]) }
            server.route("/here") { _, response in await response.respond(status: 302, headers: [("Location", "/peek.raw")]) }
            server.route("/peek.raw") { _, response in await response.respondWithRawImage() }
            _ = try await downloader.image(from: server.url(for: "/away"))
            _ = try await downloader.image(from: server.url(for: "/here"))
            #expect(server.requests.first?.header("Authorization") != nil)
            #expect(other.requests.count == 1)
            #expect(other.requests.first?.header("Authorization") == nil)
            #expect(server.requests.last?.path == "/peek.raw")
            #expect(server.requests.last?.header("Authorization") != nil)
        }
        try await other.stop()
    }

    @Test func nonHTTPURLsAreInvalid() async throws {
        try await withDownloader { _, downloader, _ in
            let error = await capturedError { () async throws(ImageError) in
                try await downloader.image(from: URL(string: "ftp://example.com/a.png")!)
            }
            #expect(error?.code == .invalidURL)
        }
    }
}
