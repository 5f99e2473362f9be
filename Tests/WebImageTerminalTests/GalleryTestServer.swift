import Foundation
import LoopbackHTTPServer
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Serves `count` raw test images at `/gallery/<index>.raw`, each identified by its blue
/// channel (`index % 256`), answering only once `gate` opens when one is given.
enum GalleryTestServer {
    static func routeImages(on server: LoopbackHTTPServer, count: Int, after gate: LoopbackGate? = nil) -> [URL] {
        (0..<count).map { index in
            let path = "/gallery/\(index).raw"
            server.routeRawImage(path, blue: UInt8(index % 256), after: gate)
            return server.url(for: path)
        }
    }
}
