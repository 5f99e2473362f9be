import LoopbackHTTPServer
import WebImageTestSupport

extension LoopbackHTTPServer {
    /// Serves a 4 × 3 raw test image whose blue channel is `blue` at `path`, after `gate`
    /// opens when one is given.
    package func routeRawImage(_ path: String, blue: UInt8, width: Int = 4, height: Int = 3, after gate: LoopbackGate? = nil) {
        route(path) { _, response in
            await gate?.wait()
            await response.respond(headers: [("Content-Type", "image/x-raw")], body: RawRGBATestCoder.encode(width: width, height: height, blue: blue))
        }
    }
}

extension LoopbackHTTPServer {
    /// Serves a 4 × 3 raw test image at `path` whose first `sentAtOnce` bytes are sent at once
    /// and the rest only after `gate` opens, so a client sees a download under way (24 bytes
    /// hold the header and the first row).
    package func routeStalledRawImage(_ path: String, blue: UInt8, sentAtOnce: Int = 10, until gate: LoopbackGate) {
        route(path) { _, response in
            let body = RawRGBATestCoder.encode(width: 4, height: 3, blue: blue)
            await response.writeHead(status: 200, headers: [("Content-Type", "image/x-raw"), ("Content-Length", String(body.count))])
            await response.writeBody(body.prefix(sentAtOnce))
            await gate.wait()
            await response.writeBody(body.dropFirst(sentAtOnce))
            await response.end()
        }
    }

    /// Answers `path` with `status` and no body, after `gate` opens when one is given.
    package func routeStatus(_ path: String, _ status: Int, after gate: LoopbackGate? = nil) {
        route(path) { _, response in
            await gate?.wait()
            await response.respond(status: status)
        }
    }
}
