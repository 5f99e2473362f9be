import Foundation
import HTTPTypes
import Hummingbird
import LoopbackHTTPServer
import Testing
import WebImage
@testable import WebImageServer
import WebImageLoadingTestSupport
import WebImageServerTestSupport
import WebImageTestSupport

/// The server's routes in an application's own Hummingbird router, under `/images`,
/// answered over real HTTP on a loopback port.
@Suite("Image server mounted in an application", .serialized, .timeLimit(.minutes(10)))
struct ImageServerMountingTests {
    @Test func anApplicationAnswersSignedURLsUnderItsGroup() async throws {
        let key = Array("app secret".utf8)
        let folder = TemporaryDirectory(prefix: "mounted-server")
        var configuration = ImageServerConfiguration(cacheDirectory: folder.url)
        configuration.signingKey = key
        configuration.allowsPrivateSources = true
        configuration.logLevel = .error
        configuration.requestTimeout = 600
        let server = ImageServer(configuration: configuration)
        let sources = try await LoopbackHTTPServer.start()
        let png = Array(try ImageServerHarness.png(width: 64, height: 48))
        sources.route("/a.png") { _, response in
            await response.respond(headers: [("Content-Type", "image/png")], body: png)
        }

        // The application: a route of its own, and the server's under /images.
        let router = Router()
        router.get("/hello") { _, _ in "hello from the app" }
        try server.addRoutes(to: router.group("images"))
        let port = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.continuation.yield(channel.localAddress?.port ?? 0) })
        let running = Task {
            defer { port.continuation.finish() }
            try await application.runService()
        }
        var iterator = port.stream.makeAsyncIterator()
        let bound = try #require(await iterator.next())
        let client = ImageServerClient()
        do {
            // Signed over the path under the group, as a standalone server's URL is.
            let signedPath = "/\(ImageServerHarness.encode("resize=32|format=webp"))/\(ImageServerHarness.encodeSource(sources.url(for: "/a.png").absoluteString))"
            let signature = ImageURLSigner(key: key).signature(for: signedPath)
            let answer = try await client.get(port: bound, "/images/\(signature)\(signedPath)")
            #expect(answer.status == 200)
            #expect(answer.headers.first(name: "Content-Type") == "image/webp")
            #expect(try answer.image().pixelWidth == 32)

            // A signature over the whole path (with /images) is not the server's.
            let wrong = ImageURLSigner(key: key).signature(for: "/images\(signedPath)")
            let refused = try await client.get(port: bound, "/images/\(wrong)\(signedPath)")
            #expect(refused.status == 403)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("\"status\":403"), "the server's error envelope")
            let forged = ImageURLSigner(key: Array("other".utf8)).signature(for: signedPath)
            #expect(try await client.get(port: bound, "/images/\(forged)\(signedPath)").status == 403)

            // The server's other routes and envelope are there too; the app's own route is untouched.
            let health = try await client.get(port: bound, "/images/health")
            #expect(String(decoding: health.body, as: UTF8.self) == "{\"status\":\"ok\"}\n")
            #expect(String(decoding: try await client.get(port: bound, "/hello").body, as: UTF8.self) == "hello from the app")
            #expect(sources.requestCount(for: "/a.png") == 1, "the refused URLs fetched nothing")
        } catch {
            running.cancel()
            _ = try? await running.value
            await server.shutdown()
            try await sources.stop()
            throw error
        }
        running.cancel()
        _ = try? await running.value
        await server.shutdown()
        try await sources.stop()
    }

    @Test(arguments: [
        ("/images/**", "/images/sig/resize=10/plain/http://a/b.png?x=1", "/sig/resize=10/plain/http://a/b.png?x=1"),
        ("/images", "/images", "/"),
        ("/images", "/images?x=1", "/?x=1"),
        ("/t/:tenant/images/**", "/t/acme/images/sig//x", "/sig//x"),
        ("/images/**", "//images/health", "/health"),
    ])
    func thePathUnderTheGroupIsTheServers(_ endpoint: String, _ path: String, _ expected: String) {
        let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "a", path: path), body: RequestBody(buffer: ByteBuffer()))
        #expect(ImageServer.head(of: request, under: endpoint).path == expected)
    }
}
