import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("DownloadOperation")
struct DownloadOperationTests {
    @Test func progressiveDownloadDeliversPartialImagesBeforeTheFinalOne() async throws {
        try await withDownloader { server, downloader, coder in
            let width = 4, height = 4
            let bytes = RawRGBATestCoder.encode(width: width, height: height)
            let rowBytes = width * 4
            let gates = [LoopbackGate(), LoopbackGate()]
            server.route("/progressive.raw") { _, response in
                await response.writeHead(status: 200, headers: [("Content-Type", "image/x-raw")])
                await response.writeBody(bytes[0..<(8 + rowBytes)])
                await gates[0].wait()
                await response.writeBody(bytes[(8 + rowBytes)..<(8 + 2 * rowBytes)])
                await gates[1].wait()
                await response.writeBody(bytes[(8 + 2 * rowBytes)...])
                await response.end()
            }
            let partials = DownloadCallbackRecorder<Image>()
            let request = ImageLoadRequest(
                url: server.url(for: "/progressive.raw"),
                options: .progressiveDownload,
                partialImage: { image in
                    partials.append(image)
                    let count = partials.values.count
                    if count <= gates.count {
                        gates[count - 1].open()
                    }
                }
            )
            let result = try await downloader.image(for: request)
            let final = try #require(result.image)
            #expect(partials.values.count >= 2)
            let first = try #require(partials.values.first)
            #expect(Array(first.bitmap.pixels[0..<4]) == [0, 0, 7, 255])
            #expect(first.bitmap.pixels[rowBytes + 3] == 0)
            let second = partials.values[1]
            #expect(Array(second.bitmap.pixels[rowBytes..<(rowBytes + 4)]) == [0, 1, 7, 255])
            #expect(Array(final.bitmap.pixels.suffix(4)) == [3, 3, 7, 255])
            #expect(coder.partialDecodeCount >= 2)
            #expect(coder.fullDecodeCount == 1)
        }
    }

    @Test func withoutTheOptionNoPartialDecodeRuns() async throws {
        try await withDownloader { server, downloader, coder in
            server.route("/plain.raw") { _, response in
                await response.writeHead(status: 200)
                await response.writeBody(RawRGBATestCoder.encode(width: 2, height: 2))
                await response.end()
            }
            let partials = DownloadCallbackRecorder<Image>()
            let request = ImageLoadRequest(url: server.url(for: "/plain.raw"), partialImage: { partials.append($0) })
            let result = try await downloader.image(for: request)
            #expect(result.image?.pixelWidth == 2)
            #expect(partials.values.isEmpty)
            #expect(coder.partialDecodeCount == 0)
        }
    }

    @Test func chunkedProgressReportsAnUnknownLength() async throws {
        try await withDownloader { server, downloader, _ in
            let bytes = RawRGBATestCoder.encode(width: 2, height: 2)
            server.route("/chunked.raw") { _, response in
                await response.writeHead(status: 200)
                await response.writeBody(bytes)
                await response.end()
            }
            let progress = DownloadCallbackRecorder<[Int64]>()
            let request = ImageLoadRequest(url: server.url(for: "/chunked.raw"), progress: { progress.append([$0, $1]) })
            let result = try await downloader.image(for: request)
            #expect(server.requests.count == 1)
            #expect(result.response?.expectedContentLength == nil)
            #expect(progress.values.first == [0, -1])
            #expect(progress.values.last == [Int64(bytes.count), -1])
        }
    }

    @Test func minimumProgressIntervalThinsProgressReports() async throws {
        try await withDownloader(configure: { $0.minimumProgressInterval = 0.5 }) { server, downloader, _ in
            server.route("/steps") { _, response in
                await response.writeHead(status: 200, headers: [("Content-Length", "1000")])
                for _ in 0..<10 {
                    await response.writeBody([UInt8](repeating: 0, count: 100))
                }
                await response.end()
            }
            let progress = DownloadCallbackRecorder<[Int64]>()
            let request = ImageLoadRequest(url: server.url(for: "/steps"), progress: { progress.append([$0, $1]) })
            _ = await capturedError { () async throws(ImageError) in try await downloader.image(for: request) }
            let received = progress.values.map { $0[0] }
            #expect(received.first == 0)
            #expect(received.last == 1000)
            #expect(received.count <= 4)
            #expect(zip(received, received.dropFirst()).allSatisfy { $1 == 1000 || $1 - $0 >= 500 })
        }
    }

    @Test func scaleDownLargeImagesSetsTheMemoryBudget() async throws {
        try await withDownloader(configure: { $0.scaleDownLimitBytes = 1024 }) { _, downloader, _ in
            let operation = DownloadOperation(
                key: DownloadKey(ImageLoadRequest(url: URL(string: "http://127.0.0.1/a")!), configuration: downloader.configuration),
                options: [],
                downloader: downloader
            )
            let scaled = ImageLoadRequest(url: URL(string: "http://127.0.0.1/a")!, options: .scaleDownLargeImages)
            #expect(operation.effectiveDecodeOptions(for: scaled, partial: false).scaleDownLimitBytes == 1024)
            #expect(operation.effectiveDecodeOptions(for: scaled, partial: true).scaleDownLimitBytes == nil)
        }
    }
}
