import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// Three `webimage serve` processes behind nginx (deploy/nginx.conf), as scripts/fleet.sh
/// runs them: routing by a consistent hash of the source sends each source to one instance.
@Suite("webimage serve fleet behind nginx", .timeLimit(.minutes(15)))
struct ImageServerFleetTests {
    @Test(.enabled(if: ImageServerFleet.nginx != nil, "needs nginx (scripts/install-system-packages.sh installs it)"))
    func threeInstancesFetchEachSourceOnce() async throws {
        let sources = try await LoopbackHTTPServer.start()
        for index in 0..<50 {
            let png = try ImageCodersManager.shared.encode(
                Image(bitmap: ManagerTestImage.bitmap(width: 90, height: 60, tint: UInt8(index * 5))), as: .png)
            sources.route("/s\(index).png") { _, response in
                await response.respond(headers: [("Content-Type", "image/png")], body: Array(png))
            }
        }
        let fleet = try await ImageServerFleet(
            instances: 3, arguments: ["--request-timeout", "600", "--insecure-unsigned", "--allow-private-sources"])
        let client = ImageServerClient()
        do {
            try await client.waitUntilReachable(port: fleet.port)
            // 300 requests: 50 sources × 3 sizes, each asked twice, from 10 clients at once.
            let jobs = (0..<300).map { (source: $0 % 50, width: [20, 40, 80][($0 / 50) % 3]) }
            let results = try await withThrowingTaskGroup(of: (Int, Int, Int).self) { group in
                var pending = jobs.makeIterator()
                var answers: [(Int, Int, Int)] = []
                func start() {
                    guard let job = pending.next() else { return }
                    let path = "/_/resize=\(job.width)/" + ImageServerClient.plainSource(sources.url(for: "/s\(job.source).png").absoluteString)
                    group.addTask {
                        let answer = try await client.get(port: fleet.port, path)
                        let width = answer.status == 200 ? try answer.image().pixelWidth : -1
                        return (answer.status, width, job.width)
                    }
                }
                for _ in 0..<10 { start() }
                while let answer = try await group.next() {
                    answers.append(answer)
                    start()
                }
                return answers
            }
            #expect(results.count == 300)
            #expect(results.allSatisfy { $0.0 == 200 && $0.1 == $0.2 })
            #expect(sources.requests.count == 50, "each source is fetched by exactly one instance, once")
            #expect((0..<50).allSatisfy { sources.requestCount(for: "/s\($0).png") == 1 })
            // nginx keys its cache by the path alone: a query string (which the instances
            // ignore) is answered from the cache, not passed on as a new miss.
            let cachedPath = "/_/resize=20/" + ImageServerClient.plainSource(sources.url(for: "/s0.png").absoluteString)
            #expect(try await client.get(port: fleet.port, cachedPath).headers.first(name: "X-Cache") == "HIT")
            for query in ["?a=1", "?a=2", "?"] {
                let answer = try await client.get(port: fleet.port, cachedPath + query)
                #expect(answer.status == 200)
                #expect(answer.headers.first(name: "X-Cache") == "HIT", "\(query)")
            }
        } catch {
            await fleet.stop()
            try await sources.stop()
            throw error
        }
        #expect(await fleet.stop() == [0, 0, 0], "every instance stops cleanly on SIGTERM")
        try await sources.stop()
    }

    /// Each instance in turn is stopped (SIGTERM: it drains what it has in flight) and
    /// started again on its port, the next one only once nginx may use the last again,
    /// while clients keep asking through nginx for results no
    /// cache holds: nginx sends what the stopped instance cannot take to the next one in the
    /// ring, and no request fails. A source an instance refuses (422, not an image) is
    /// answered as refused and not tried again on the other instances.
    @Test(.enabled(if: ImageServerFleet.nginx != nil, "needs nginx (scripts/install-system-packages.sh installs it)"))
    func aRollingRestartLosesNoRequestAndARefusalIsNotRetried() async throws {
        let sources = try await LoopbackHTTPServer.start()
        for index in 0..<12 {
            let png = try ImageCodersManager.shared.encode(
                Image(bitmap: ManagerTestImage.bitmap(width: 64, height: 48, tint: UInt8(index * 20))), as: .png)
            sources.route("/s\(index).png") { _, response in
                await response.respond(headers: [("Content-Type", "image/png")], body: Array(png))
            }
        }
        sources.route("/not-an-image.png") { _, response in
            await response.respond(headers: [("Content-Type", "image/png")], body: Array("no pixels here".utf8))
        }
        let fleet = try await ImageServerFleet(
            instances: 3, arguments: ["--request-timeout", "600", "--insecure-unsigned", "--allow-private-sources"])
        let client = ImageServerClient()
        let restarting = NIOLockedValueBox(true)
        do {
            try await client.waitUntilReachable(port: fleet.port)
            let answers = try await withThrowingTaskGroup(of: [(status: Int, width: Int, asked: Int)].self) { group in
                // Four clients, each asking for a width no cache holds yet (every path is
                // new to nginx's cache and to the instances'), until the restarts are done.
                for lane in 0..<4 {
                    group.addTask {
                        var answers: [(status: Int, width: Int, asked: Int)] = []
                        var round = 0
                        while restarting.withLockedValue({ $0 }) || round < 3 {
                            let width = 8 + (lane + 4 * round) % 56
                            let path = "/_/resize=\(width)/" + ImageServerClient.plainSource(sources.url(for: "/s\(round % 12).png").absoluteString)
                            let answer = try await client.get(port: fleet.port, path)
                            answers.append((answer.status, answer.status == 200 ? try answer.image().pixelWidth : -1, width))
                            round += 1
                        }
                        return answers
                    }
                }
                var statuses: [Int32] = []
                for index in fleet.instancePorts.indices {
                    statuses.append(try await fleet.restart(index))
                    // nginx sets an instance it could not reach aside for `fail_timeout`
                    // (10 s by default), then tries it again: the next one may go down only
                    // after that, or every instance could be set aside at once (502).
                    try await Task.sleep(for: .seconds(ImageServerFleet.failTimeout + 1))
                }
                #expect(statuses == [0, 0, 0], "each instance drained and stopped cleanly")
                restarting.withLockedValue { $0 = false }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let failed = answers.filter { $0.status != 200 || $0.width != $0.asked }
            #expect(failed.isEmpty, "\(failed.count) of \(answers.count) requests failed: \(failed.prefix(5))")
            #expect(answers.count >= 12)

            let refused = "/_/resize=20/" + ImageServerClient.plainSource(sources.url(for: "/not-an-image.png").absoluteString)
            #expect(try await client.get(port: fleet.port, refused).status == 422)
            #expect(sources.requestCount(for: "/not-an-image.png") == 1, "the refusal is nginx's answer, not retried on another instance")
        } catch {
            await fleet.stop()
            try await sources.stop()
            throw error
        }
        #expect(await fleet.stop() == [0, 0, 0])
        try await sources.stop()
    }

    @Test func finishesInFlightRequestsOnSIGTERM() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-sigterm")
        let sources = try await LoopbackHTTPServer.start()
        let gate = LoopbackGate()
        let png = Array(try ImageCodersManager.shared.encode(Image(bitmap: ManagerTestImage.bitmap(width: 50, height: 40, tint: 3)), as: .png))
        // The source sends its head at once, then a byte every second until the gate opens:
        // the server's downloader drops a source silent for 15 s, and a loaded machine can
        // take longer than that to stop the server's listener. A byte a second is far below
        // the minimum transfer rate, which this server measures not at all.
        sources.route("/slow.png") { _, response in
            await response.writeHead(status: 200, headers: [("Content-Type", "image/png"), ("Content-Length", "\(png.count)")])
            var sent = 0
            while !gate.isOpen, sent < png.count - 1 {
                await response.writeBody(png[sent..<sent + 1])
                sent += 1
                try? await Task.sleep(for: .seconds(1))
            }
            await gate.wait()
            await response.writeBody(png[sent...])
            await response.end()
        }
        let server = try BackgroundProcess(
            try BuiltExecutable.url(named: "webimage"),
            [
                "serve", "--request-timeout", "600", "--timeout", "600", "--min-source-rate", "0", "--port", "0", "--insecure-unsigned", "--allow-private-sources", "--cache-dir",
                scratch.url.path,
            ])
        let line = try await server.waitForLine(containing: "listening on")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        let client = ImageServerClient()
        let path = "/_/resize=25/" + ImageServerClient.plainSource(sources.url(for: "/slow.png").absoluteString)
        let inFlight = Task { try await client.get(port: port, path) }
        try await sources.waitForRequests(to: "/slow.png")
        let stopped = Task { await server.stop() }
        #expect(await eventually { !LoopbackPortProbe.accepts(port: port) }, "the server stops accepting")
        #expect(server.isRunning, "the server waits for the request in flight")
        gate.open()
        let answer = try await inFlight.value
        #expect(answer.status == 200)
        #expect(try answer.image().pixelWidth == 25)
        #expect(await stopped.value == 0)
        try await sources.stop()
    }

    @Test func theDemoPageShowsSamplesThroughTheServer() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-demo")
        let server = try BackgroundProcess(
            try BuiltExecutable.url(named: "webimage"),
            [
                "serve", "--request-timeout", "600", "--demo", "--port", "0", "--key", String(repeating: "00112233", count: 8), "--cache-dir", scratch.url.path,
            ])
        do {
            let line = try await server.waitForLine(containing: "listening on")
            let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
            let client = ImageServerClient()
            let page = try await client.get(port: port, "/")
            #expect(page.status == 200 && page.headers.first(name: "Content-Type")?.hasPrefix("text/html") == true)
            let html = String(decoding: page.body, as: UTF8.self)
            let sources = html.components(separatedBy: "src=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
            let variants = 7  // ServerDemoPage.variants: sizes, formats, and centre vs smart fills
            #expect(sources.count == 24 * variants)
            // The first sample, in every variant, signed with the key.
            for source in sources.prefix(variants) {
                let answer = try await client.get(port: port, source.replacingOccurrences(of: "&amp;", with: "&"), headers: [("Accept", "image/webp")])
                #expect(answer.status == 200, "\(source)")
                #expect((try? answer.image()) != nil)
            }
        } catch {
            // Say whether the server was still up, and what it wrote, when a request failed.
            Issue.record("the server is \(server.isRunning ? "running" : "gone"); its standard error ends: \(server.errorOutput.suffix(4000))")
            throw error
        }
        let status = await server.stop()
        #expect(status == 0, "its standard error ends: \(server.errorOutput.suffix(4000))")
    }

    /// `--demo` lets through its own sample server and nothing else on loopback: another
    /// local service's port is refused.
    @Test func theDemoOpensOnlyItsSampleServersPort() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-demo-port")
        let local = try await CLIImageServer.start()
        let server = try BackgroundProcess(
            try BuiltExecutable.url(named: "webimage"),
            ["serve", "--request-timeout", "600", "--demo", "--demo-samples", "2", "--port", "0", "--insecure-unsigned", "--cache-dir", scratch.url.path])
        do {
            let line = try await server.waitForLine(containing: "listening on")
            let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
            let client = ImageServerClient()
            let html = String(decoding: try await client.get(port: port, "/").body, as: UTF8.self)
            let sample = try #require(html.components(separatedBy: "src=\"").dropFirst().first?.split(separator: "\"").first.map(String.init))
            #expect(try await client.get(port: port, sample.replacingOccurrences(of: "&amp;", with: "&")).status == 200)
            let other = try await client.get(port: port, "/_/resize=10/" + ImageServerClient.plainSource(local.url("/a.png")))
            #expect(other.status == 403)
            #expect(local.server.requestCount(for: "/a.png") == 0, "the other loopback port is never fetched")
        } catch {
            await server.stop()
            try await local.stop()
            throw error
        }
        #expect(await server.stop() == 0)
        try await local.stop()
    }
}
