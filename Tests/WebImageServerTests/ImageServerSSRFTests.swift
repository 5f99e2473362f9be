import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// The image server's source policy at every hop and on the address connected to: redirect
/// targets are checked like the first URL, a name is resolved once and the connection goes
/// to the address checked, and the special-purpose ranges are refused.
@Suite("ImageServer SSRF", .serialized, .timeLimit(.minutes(15)))
struct ImageServerSSRFTests {
    /// A resolver answering from `answers`, by host, one answer per call (the last one
    /// repeats); it records every host asked for.
    final class ScriptedResolver: Sendable {
        let answers: [String: [[String]]]
        let asked = NIOLockedValueBox<[String]>([])

        init(_ answers: [String: [[String]]]) {
            self.answers = answers
        }

        var resolver: SourceHostResolver {
            SourceHostResolver { host in
                let calls = self.asked.withLockedValue { asked in
                    asked.append(host)
                    return asked.filter { $0 == host }.count
                }
                guard let script = self.answers[host], !script.isEmpty else { return [] }
                return script[min(calls, script.count) - 1]
            }
        }
    }

    static func png() throws -> Data {
        try ImageCodersManager.shared.encode(Image(bitmap: ManagerTestImage.bitmap(width: 20, height: 10, tint: 9)), as: .png)
    }

    /// A server on 127.0.0.2 (loopback, so never public) that serves the image the
    /// tests must never reach, on `port` (0: a free one).
    static func forbiddenServer(port: Int = 0) async throws -> LoopbackHTTPServer {
        let server = try await LoopbackHTTPServer.start(host: "127.0.0.2", port: port)
        let png = try Self.png()
        server.route("/secret.png") { _, response in
            await response.respond(headers: [("Content-Type", "image/png")], body: Array(png))
        }
        return server
    }

    @Test func aRedirectToAHostOffTheAllowListIsRefused() async throws {
        let forbidden = try await Self.forbiddenServer()
        try await ImageServerHarness.run(configure: { $0.allowedHosts = ["127.0.0.1"] }) { harness in
            let target = forbidden.url(for: "/secret.png").absoluteString
            harness.sources.route("/jump.png") { _, response in
                await response.respond(status: 302, headers: [("Location", target)])
            }
            let answer = try await harness.get(harness.path("resize=10", source: "/jump.png"))
            #expect(answer.status == 403)
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect(body.contains("address not allowed"))
            #expect(!body.contains("127.0.0.2") && !body.contains(String(forbidden.port)), "the body names no host or port")
            #expect(harness.sources.requestCount(for: "/jump.png") == 1)
        }
        #expect(forbidden.requestCount(for: "/secret.png") == 0, "the redirect's target is never fetched")
        try await forbidden.stop()
    }

    /// With a port allow-list (what `--demo` sets), another port on an allowed host is
    /// refused, for the first URL and for a redirect's target.
    @Test func aPortOffThePortListIsRefusedAtEveryHop() async throws {
        // The one port allowed: a server of its own (the harness's starts after the
        // configuration is made); the harness's source server is the other port.
        let allowed = try await LoopbackHTTPServer.start()
        let png = try Self.png()
        allowed.route("/a.png") { _, response in
            await response.respond(headers: [("Content-Type", "image/png")], body: Array(png))
        }
        try await ImageServerHarness.run(configure: {
            $0.allowsPrivateSources = false
            $0.allowedHosts = ["127.0.0.1"]
            $0.allowedSourceAddresses = ["127.0.0.1"]
            $0.allowedSourcePorts = [allowed.port]
        }) { harness in
            harness.serve("/secret.png", png)
            let target = harness.sources.url(for: "/secret.png").absoluteString
            allowed.route("/jump.png") { _, response in
                await response.respond(status: 302, headers: [("Location", target)])
            }
            func path(_ url: URL) -> String { "/_/resize=10/" + ImageServerClient.plainSource(url.absoluteString) }
            #expect(try await harness.get(path(allowed.url(for: "/a.png"))).status == 200)
            let direct = try await harness.get(path(harness.sources.url(for: "/secret.png")))
            #expect(direct.status == 403)
            #expect(String(decoding: direct.body, as: UTF8.self).contains("address not allowed"))
            #expect(try await harness.get(path(allowed.url(for: "/jump.png"))).status == 403)
            #expect(allowed.requestCount(for: "/jump.png") == 1)
            #expect(harness.sources.requestCount(for: "/secret.png") == 0, "the other port is never fetched")
        }
        try await allowed.stop()
    }

    @Test func aRedirectToANameThatResolvesToAForbiddenAddressIsRefused() async throws {
        let forbidden = try await Self.forbiddenServer()
        let resolver = ScriptedResolver(["images.test": [["127.0.0.1"]], "inside.test": [["127.0.0.2"]]])
        try await ImageServerHarness.run(configure: {
            $0.allowsPrivateSources = false
            $0.allowedSourceAddresses = ["127.0.0.1"]
            $0.resolver = resolver.resolver
        }) { harness in
            let png = try Self.png()
            harness.serve("/a.png", png)
            let target = "http://inside.test:\(forbidden.port)/secret.png"
            harness.sources.route("/jump.png") { _, response in
                await response.respond(status: 307, headers: [("Location", target)])
            }
            // The permitted address is fetched by name, through the resolver only (the
            // system's resolver knows no images.test).
            let source = "http://images.test:\(harness.sources.port)"
            let direct = try await harness.get("/_/resize=10/" + ImageServerHarness.encodeSource(source + "/a.png"))
            #expect(direct.status == 200)
            let answer = try await harness.get("/_/resize=10/" + ImageServerHarness.encodeSource(source + "/jump.png"))
            #expect(answer.status == 403)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("address not allowed"))
            #expect(resolver.asked.withLockedValue { $0.contains("inside.test") }, "the redirect's host was resolved and checked")
        }
        #expect(forbidden.requestCount(for: "/secret.png") == 0)
        try await forbidden.stop()
    }

    @Test func theConnectionGoesToTheAddressChecked() async throws {
        let resolver = ScriptedResolver(["rebind.test": [["127.0.0.1"], ["127.0.0.2"]]])
        try await ImageServerHarness.run(configure: {
            $0.allowsPrivateSources = false
            $0.allowedSourceAddresses = ["127.0.0.1"]
            $0.resolver = resolver.resolver
        }) { harness in
            // The same port on 127.0.0.2 answers too: a second resolution would reach it.
            let forbidden = try await Self.forbiddenServer(port: harness.sources.port)
            let png = try Self.png()
            harness.serve("/secret.png", png)
            let source = "http://rebind.test:\(harness.sources.port)/secret.png"
            let answer = try await harness.get("/_/resize=10/" + ImageServerHarness.encodeSource(source))
            #expect(answer.status == 200)
            #expect(harness.sources.requestCount(for: "/secret.png") == 1, "the permitted address answered")
            #expect(forbidden.requestCount(for: "/secret.png") == 0, "the second answer was never asked for nor connected to")
            #expect(resolver.asked.withLockedValue { $0 } == ["rebind.test"], "the name is resolved once")
            try await forbidden.stop()
        }
    }

    @Test func aNameWithAnyForbiddenAddressIsRefused() async throws {
        let resolver = ScriptedResolver(["mixed.test": [["127.0.0.1", "127.0.0.2"]], "metadata.test": [["169.254.169.254"]]])
        try await ImageServerHarness.run(configure: {
            $0.allowsPrivateSources = false
            $0.allowedSourceAddresses = ["127.0.0.1"]
            $0.resolver = resolver.resolver
        }) { harness in
            harness.serve("/a.png", try Self.png())
            for host in ["mixed.test", "metadata.test"] {
                let source = "http://\(host):\(harness.sources.port)/a.png"
                let answer = try await harness.get("/_/resize=10/" + ImageServerHarness.encodeSource(source))
                #expect(answer.status == 403, "\(host)")
                let body = String(decoding: answer.body, as: UTF8.self)
                #expect(body.contains("address not allowed") && !body.contains("169.254") && !body.contains(host))
            }
            #expect(harness.sources.requestCount(for: "/a.png") == 0)
        }
    }

    @Test(arguments: [
        // IPv4
        ("0.1.2.3", false), ("10.0.0.1", false), ("100.64.0.1", false), ("100.127.255.255", false), ("100.128.0.1", true),
        ("127.0.0.1", false), ("169.254.169.254", false), ("172.16.0.1", false), ("172.31.255.255", false), ("172.32.0.1", true),
        ("192.0.0.8", false), ("192.0.2.1", false), ("192.88.99.1", false), ("192.168.1.1", false),
        ("198.18.0.1", false), ("198.19.255.255", false), ("198.20.0.1", true), ("198.51.100.7", false), ("203.0.113.9", false),
        ("224.0.0.1", false), ("239.255.255.255", false), ("240.0.0.1", false), ("255.255.255.255", false),
        ("93.184.216.34", true), ("8.8.8.8", true), ("1.1.1.1", true),
        // IPv6
        ("::", false), ("::1", false), ("::127.0.0.1", false), ("::8.8.8.8", false), ("::ffff:127.0.0.1", false),
        ("::ffff:8.8.8.8", true), ("64:ff9b::808:808", false), ("64:ff9b:1::1", false), ("100::1", false),
        ("2001::1", false), ("2001:1ff::1", false), ("2001:db8::1", false), ("3fff::1", false),
        ("2002:7f00:1::1", false), ("2002:a9fe:a9fe::1", false), ("2002:808:808::1", true),
        ("fc00::1", false), ("fd12:3456::1", false), ("fe80::1", false), ("fec0::1", false), ("feff::1", false), ("ff02::1", false),
        ("2606:4700::1111", true), ("2a00:1450:4001::1", true), ("2001:4860:4860::8888", true),
    ])
    func specialPurposeRanges(address: String, isPublic: Bool) throws {
        let parsed = try #require(IPAddress(address))
        #expect(parsed.isPublic == isPublic, "\(address)")
    }

    @Test func textThatIsNoAddressDoesNotParse() {
        #expect(IPAddress("images.example.com") == nil)
        #expect(IPAddress("127.0.0.1.example") == nil)
        #expect(IPAddress("") == nil)
    }
}
