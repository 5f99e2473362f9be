import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageDownloader")
struct ImageDownloaderTests {
    @Test func downloadsAndDecodesAnImage() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/a.raw") { _, response in
                await response.respondWithRawImage(width: 5, height: 2, headers: [("ETag", "\"v1\"")])
            }
            let result = try await downloader.image(from: server.url(for: "/a.raw"))
            let image = try #require(result.image)
            #expect(image.pixelSize == PixelSize(width: 5, height: 2))
            #expect(Array(image.bitmap.pixels[4..<8]) == [1, 0, 7, 255])
            #expect(result.data.count == 8 + 5 * 2 * 4)
            #expect(result.response?.statusCode == 200)
            #expect(result.response?.eTag == "\"v1\"")
            #expect(result.response?.mimeType == "image/x-raw")
            #expect(!result.isNotModified)
        }
    }

    @Test func hundredCallersShareOneRequest() async throws {
        try await withDownloader { server, downloader, coder in
            let gate = LoopbackGate()
            server.route("/shared.raw") { _, response in
                await gate.wait()
                await response.respondWithRawImage()
            }
            let collector = DownloadResultCollector()
            let url = server.url(for: "/shared.raw")
            for _ in 0..<100 {
                downloader.downloadImage(with: ImageLoadRequest(url: url)) { collector.record($0) }
            }
            try await server.waitForRequests(to: "/shared.raw")
            gate.open()
            try await collector.wait(for: 100)
            #expect(server.requestCount(for: "/shared.raw") == 1)
            #expect(collector.images.count == 100)
            #expect(Set(collector.images.map(ObjectIdentifier.init)).count == 1)
            #expect(coder.fullDecodeCount == 1)
        }
    }

    @Test func bytesOnlyCallersShareTheTransferAndSkipTheDecoder() async throws {
        try await withDownloader { server, downloader, coder in
            let gate = LoopbackGate()
            server.route("/mixed.raw") { _, response in
                await gate.wait()
                await response.respondWithRawImage(width: 3, height: 3)
            }
            let url = server.url(for: "/mixed.raw")
            let collector = DownloadResultCollector()
            downloader.downloadImage(with: ImageLoadRequest(url: url, decodesImage: false)) { collector.record($0) }
            downloader.downloadImage(with: ImageLoadRequest(url: url)) { collector.record($0) }
            try await server.waitForRequests(to: "/mixed.raw")
            gate.open()
            try await collector.wait(for: 2)
            let results = try collector.results.map { try $0.get() }
            #expect(server.requestCount(for: "/mixed.raw") == 1)
            #expect(coder.fullDecodeCount == 1)
            #expect(results.filter { $0.image == nil }.count == 1)
            #expect(results.compactMap(\.image).map(\.pixelWidth) == [3])
            #expect(results.allSatisfy { $0.data.count == 8 + 3 * 3 * 4 })
        }
    }

    @Test func dataFromAURLIsTheBodyUndecoded() async throws {
        try await withDownloader { server, downloader, coder in
            server.route("/plain.raw") { _, response in
                await response.respondWithRawImage(width: 2, height: 1)
            }
            let result = try await downloader.data(from: server.url(for: "/plain.raw"))
            #expect(result.image == nil)
            #expect(result.data.count == 8 + 2 * 1 * 4)
            #expect(result.response?.statusCode == 200)
            #expect(coder.fullDecodeCount == 0)
        }
    }

    @Test(.timeLimit(.minutes(15)))
    func theNextTransferStartsWhileTheLastOneDecodes() async throws {
        let coder = GatedTestCoder()
        try await withDownloader(configure: {
            $0.maxConcurrentDownloads = 1
            $0.coders = ImageCodersManager(coders: [coder])
        }) { server, downloader, _ in
            server.route("/first.raw") { _, response in await response.respondWithRawImage() }
            server.route("/second.raw") { _, response in await response.respondWithRawImage() }
            let collector = DownloadResultCollector()
            for path in ["/first.raw", "/second.raw"] {
                downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: path))) { collector.record($0) }
            }
            // The first image's decode is held, and still the second transfer reaches the server.
            try await server.waitForRequests(to: "/second.raw")
            #expect(collector.results.isEmpty)
            coder.open()
            try await collector.wait(for: 2)
            #expect(collector.images.count == 2)
        }
    }

    @Test func eachDistinctDecodeOptionDecodesOnce() async throws {
        try await withDownloader { server, downloader, coder in
            let gate = LoopbackGate()
            server.route("/big.raw") { _, response in
                await gate.wait()
                await response.respondWithRawImage(width: 8, height: 8)
            }
            let url = server.url(for: "/big.raw")
            let collector = DownloadResultCollector()
            let thumbnail = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 2, height: 2))
            for options in [ImageDecodeOptions(), thumbnail, ImageDecodeOptions(), thumbnail] {
                downloader.downloadImage(with: ImageLoadRequest(url: url, decodeOptions: options)) { collector.record($0) }
            }
            try await server.waitForRequests(to: "/big.raw")
            gate.open()
            try await collector.wait(for: 4)
            #expect(server.requestCount(for: "/big.raw") == 1)
            #expect(coder.fullDecodeCount == 2)
            #expect(collector.images.map(\.pixelWidth).sorted() == [2, 2, 8, 8])
        }
    }

    @Test func cancellingOneOfThreeTokensServesTheOtherTwo() async throws {
        try await withDownloader { server, downloader, _ in
            let gate = LoopbackGate()
            server.route("/three.raw") { _, response in
                await gate.wait()
                await response.respondWithRawImage()
            }
            let url = server.url(for: "/three.raw")
            let collector = DownloadResultCollector()
            let tokens = (0..<3).map { _ in
                downloader.downloadImage(with: ImageLoadRequest(url: url)) { collector.record($0) }
            }
            try await server.waitForRequests(to: "/three.raw")
            tokens[1].cancel()
            try await collector.wait(for: 1)
            #expect(collector.errors.map(\.code) == [.cancelled])
            gate.open()
            try await collector.wait(for: 3)
            #expect(collector.images.count == 2)
            #expect(collector.errors.count == 1)
            #expect(server.requestCount(for: "/three.raw") == 1)
            #expect(server.connectionsAbortedByClient == 0)
        }
    }

    @Test func cancellingEveryTokenClosesTheConnection() async throws {
        try await withDownloader { server, downloader, _ in
            let gate = LoopbackGate()
            server.route("/slow.raw") { _, response in
                await response.writeHead(status: 200, headers: [("Content-Length", "1000")])
                await response.writeBody([UInt8](repeating: 1, count: 10))
                await gate.wait()
            }
            let url = server.url(for: "/slow.raw")
            let collector = DownloadResultCollector()
            let tokens = (0..<2).map { _ in
                downloader.downloadImage(with: ImageLoadRequest(url: url)) { collector.record($0) }
            }
            try await server.waitForRequests(to: "/slow.raw")
            for token in tokens {
                token.cancel()
            }
            try await server.waitForConnectionsAbortedByClient(count: 1)
            try await collector.wait(for: 2)
            #expect(collector.errors.map(\.code) == [.cancelled, .cancelled])
            gate.open()
        }
    }

    @Test func cancellingTheTaskCancelsTheAsyncDownload() async throws {
        try await withDownloader { server, downloader, _ in
            let gate = LoopbackGate()
            server.route("/stall.raw") { _, response in
                await gate.wait()
                await response.respondWithRawImage()
            }
            let url = server.url(for: "/stall.raw")
            let task = Task { await capturedError { () async throws(ImageError) in try await downloader.image(from: url) } }
            try await server.waitForRequests(to: "/stall.raw")
            task.cancel()
            let error = await task.value
            #expect(error?.code == .cancelled)
            try await server.waitForConnectionsAbortedByClient(count: 1)
            gate.open()
        }
    }

    @Test func lifoStartsTheNewestQueuedDownloadFirst() async throws {
        let order = try await serverOrder(executionOrder: .lifo, requests: [("/b1", []), ("/b2", []), ("/b3", [])])
        #expect(order == ["/first", "/b3", "/b2", "/b1"])
    }

    @Test func fifoStartsTheOldestQueuedDownloadFirst() async throws {
        let order = try await serverOrder(executionOrder: .fifo, requests: [("/b1", []), ("/b2", []), ("/b3", [])])
        #expect(order == ["/first", "/b1", "/b2", "/b3"])
    }

    @Test func prioritiesOrderTheQueue() async throws {
        let order = try await serverOrder(
            executionOrder: .fifo,
            requests: [("/low", .lowPriority), ("/normal", []), ("/high", .highPriority), ("/normal2", [])]
        )
        #expect(order == ["/first", "/high", "/normal", "/normal2", "/low"])
    }

    /// The order in which the server sees `requests` queued behind a stalled first one,
    /// with one download at a time.
    private func serverOrder(executionOrder: DownloadExecutionOrder, requests: [(String, ImageDownloaderOptions)]) async throws -> [String] {
        try await withDownloader(configure: {
            $0.maxConcurrentDownloads = 1
            $0.executionOrder = executionOrder
        }) { server, downloader, _ in
            let gate = LoopbackGate()
            server.route("/first") { _, response in
                await gate.wait()
                await response.respondWithRawImage()
            }
            for (path, _) in requests {
                server.route(path) { _, response in await response.respondWithRawImage() }
            }
            let collector = DownloadResultCollector()
            downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: "/first"))) { collector.record($0) }
            try await server.waitForRequests(to: "/first")
            for (path, options) in requests {
                downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: path), options: options)) { collector.record($0) }
            }
            #expect(downloader.currentDownloadCount == requests.count + 1)
            gate.open()
            try await collector.wait(for: requests.count + 1)
            #expect(collector.images.count == requests.count + 1)
            return server.requests.map(\.path)
        }
    }

    @Test func suspendedDownloaderHoldsQueuedDownloads() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/held.raw") { _, response in await response.respondWithRawImage() }
            downloader.isSuspended = true
            let collector = DownloadResultCollector()
            downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: "/held.raw"))) { collector.record($0) }
            #expect(downloader.currentDownloadCount == 1)
            #expect(server.requestCount(for: "/held.raw") == 0)
            downloader.isSuspended = false
            try await collector.wait(for: 1)
            #expect(collector.images.count == 1)
        }
    }

    @Test func raisingTheConcurrencyLimitStartsQueuedDownloads() async throws {
        try await withDownloader(configure: { $0.maxConcurrentDownloads = 1 }) { server, downloader, _ in
            let gate = LoopbackGate()
            for path in ["/one", "/two"] {
                server.route(path) { _, response in
                    await gate.wait()
                    await response.respondWithRawImage()
                }
            }
            let collector = DownloadResultCollector()
            for path in ["/one", "/two"] {
                downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: path))) { collector.record($0) }
            }
            try await server.waitForRequests(to: "/one")
            #expect(server.requestCount(for: "/two") == 0)
            downloader.maxConcurrentDownloads = 2
            try await server.waitForRequests(to: "/two")
            #expect(collector.results.isEmpty)
            gate.open()
            try await collector.wait(for: 2)
            #expect(collector.images.count == 2)
        }
    }

    @Test func cancelAllDownloadsCancelsRunningAndQueuedOnes() async throws {
        try await withDownloader(configure: { $0.maxConcurrentDownloads = 1 }) { server, downloader, _ in
            let gate = LoopbackGate()
            server.route("/running") { _, response in
                await response.writeHead(status: 200)
                await response.writeBody([1])
                await gate.wait()
            }
            let collector = DownloadResultCollector()
            for path in ["/running", "/queued"] {
                downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: path))) { collector.record($0) }
            }
            try await server.waitForRequests(to: "/running")
            #expect(downloader.currentDownloadCount == 2)
            downloader.cancelAllDownloads()
            try await collector.wait(for: 2)
            #expect(collector.errors.map(\.code) == [.cancelled, .cancelled])
            try await server.waitForConnectionsAbortedByClient(count: 1)
            #expect(server.requestCount(for: "/queued") == 0)
            gate.open()
        }
    }

    @Test func callbacksRunOnTheGivenQueue() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/q.raw") { _, response in await response.respondWithRawImage() }
            let key = DispatchSpecificKey<String>()
            let queue = DispatchQueue(label: "test.callbacks")
            queue.setSpecific(key: key, value: "callbacks")
            let seen = DownloadCallbackRecorder<String?>()
            let collector = DownloadResultCollector()
            let request = ImageLoadRequest(
                url: server.url(for: "/q.raw"),
                progress: { _, _ in
                    seen.append(DispatchQueue.getSpecific(key: key))
                })
            downloader.downloadImage(with: request, callbackQueue: queue) { result in
                seen.append(DispatchQueue.getSpecific(key: key))
                collector.record(result)
            }
            try await collector.wait(for: 1)
            #expect(seen.values.count >= 2)
            #expect(seen.values.allSatisfy { $0 == "callbacks" })
        }
    }

    @Test func progressStartsAtZeroAndEndsAtTheLength() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/p.raw") { _, response in await response.respondWithRawImage(width: 10, height: 10) }
            let progress = DownloadCallbackRecorder<[Int64]>()
            let request = ImageLoadRequest(url: server.url(for: "/p.raw"), progress: { progress.append([$0, $1]) })
            _ = try await downloader.image(for: request)
            #expect(progress.values.first == [0, 408])
            #expect(progress.values.last == [408, 408])
        }
    }

    @Test func observersSeeTheEventsInOrder() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/e.raw") { _, response in await response.respondWithRawImage() }
            let events = downloader.events()
            let url = server.url(for: "/e.raw")
            _ = try await downloader.image(from: url)
            var names: [String] = []
            for await event in events {
                #expect(event.url == url)
                switch event {
                case .started: names.append("started")
                case .responseReceived(_, let response): names.append("response \(response.statusCode)")
                case .retrying: names.append("retrying")
                case .stopped: names.append("stopped")
                case .finished: names.append("finished")
                }
                if names.count == 4 { break }
            }
            #expect(names == ["started", "response 200", "stopped", "finished"])
        }
    }

    @Test func defaultAndCustomHeadersAreSent() async throws {
        try await withDownloader(configure: { configuration in
            configuration.requestModifier = DownloadRequestModifier { request in
                var request = request
                request.headers.add(name: "X-Modified", value: "yes")
                return request
            }
        }) { server, downloader, _ in
            server.route("/h.raw") { _, response in await response.respondWithRawImage() }
            downloader.setValue("tests", forHTTPHeaderField: "X-Client")
            #expect(downloader.value(forHTTPHeaderField: "x-client") == "tests")
            _ = try await downloader.image(from: server.url(for: "/h.raw"))
            let request = try #require(server.requests.first)
            #expect(request.header("Accept")?.contains("image/webp") == true)
            #expect(request.header("X-Client") == "tests")
            #expect(request.header("X-Modified") == "yes")
        }
    }

    @Test func aRequestModifierReturningNilRefusesTheDownload() async throws {
        try await withDownloader(configure: { $0.requestModifier = DownloadRequestModifier { _ in nil } }) { server, downloader, _ in
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/x")) }
            #expect(error?.code == .refused)
            #expect(server.requests.isEmpty)
        }
    }
}
