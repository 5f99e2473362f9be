import AsyncHTTPClient
import Foundation
import NIOPosix
import WebImage

/// The baseline: plain AsyncHTTPClient GETs, `concurrency` at a time, each body collected
/// whole and, when asked, decoded by the JPEG coder right there.
enum RawLoader {
    static let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton)

    static func fetchAll(_ urls: [URL], concurrency: Int, decode: Bool) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var pending = urls.makeIterator()
            func startNext() {
                guard let url = pending.next() else { return }
                group.addTask {
                    let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(15))
                    let body = try await response.body.collect(upTo: 8 << 20)
                    if decode {
                        _ = try JPEGCoder().decode(Data(body.readableBytesView), options: ImageDecodeOptions())
                    }
                }
            }
            for _ in 0..<concurrency { startNext() }
            while try await group.next() != nil { startNext() }
        }
    }
}
