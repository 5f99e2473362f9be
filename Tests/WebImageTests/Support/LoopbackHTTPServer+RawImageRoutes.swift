import LoopbackHTTPServer

extension LoopbackHTTPServer {
    /// Serves a 4 × 3 raw test image whose blue channel is `blue` at `path`, after `gate`
    /// opens when one is given.
    func routeRawImage(_ path: String, blue: UInt8, width: Int = 4, height: Int = 3, after gate: LoopbackGate? = nil) {
        route(path) { _, response in
            await gate?.wait()
            await response.respond(headers: [("Content-Type", "image/x-raw")], body: RawRGBATestCoder.encode(width: width, height: height, blue: blue))
        }
    }
}

extension LoopbackHTTPServer {
    /// Serves a raw test image at `path` whose first 10 bytes are sent at once and the rest
    /// only after `gate` opens, so a client sees a download under way.
    func routeStalledRawImage(_ path: String, blue: UInt8, until gate: LoopbackGate) {
        route(path) { _, response in
            let body = RawRGBATestCoder.encode(width: 4, height: 3, blue: blue)
            await response.writeHead(status: 200, headers: [("Content-Type", "image/x-raw"), ("Content-Length", String(body.count))])
            await response.writeBody(body.prefix(10))
            await gate.wait()
            await response.writeBody(body.dropFirst(10))
            await response.end()
        }
    }

    /// Answers `path` with `status` and no body, after `gate` opens when one is given.
    func routeStatus(_ path: String, _ status: Int, after gate: LoopbackGate? = nil) {
        route(path) { _, response in
            await gate?.wait()
            await response.respond(status: status)
        }
    }
}
