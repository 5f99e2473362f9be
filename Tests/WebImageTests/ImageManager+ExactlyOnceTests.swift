import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Every load answers exactly once, however and whenever it is cancelled.
@Suite("ImageManager answers every load exactly once", .timeLimit(.minutes(15)))
struct ImageManagerExactlyOnceTests {
    /// Where a stress load's image comes from.
    private enum Source: CaseIterable {
        case memory, disk, network
    }

    /// When a stress load is cancelled.
    private enum Cancel: CaseIterable {
        /// Never (but a `cancelAll` may still catch it).
        case never
        /// On the calling thread, as soon as `loadImage` returns.
        case atOnce
        /// From another thread, racing the load.
        case fromAnotherThread
        /// After a few turns of the cooperative pool, usually mid-query or mid-download.
        case afterYielding
        /// From the callback queue, behind whatever the load has queued there.
        case onTheCallbackQueue
    }

    /// The answers each stress load received, by load.
    private final class Tally: Sendable {
        private let answers: NIOLockedValueBox<[[ImageResponse]]>

        init(count: Int) {
            answers = NIOLockedValueBox([[ImageResponse]](repeating: [], count: count))
        }

        func record(_ response: ImageResponse, for load: Int) {
            answers.withLockedValue { $0[load].append(response) }
        }

        var all: [[ImageResponse]] { answers.withLockedValue { $0 } }

        func answered(_ loads: Range<Int>) -> Bool {
            answers.withLockedValue { answers in loads.allSatisfy { !answers[$0].isEmpty } }
        }
    }

    @Test func tenThousandRandomCancelsLeaveEveryLoadWithExactlyOneAnswer() async throws {
        try await ManagerTestHarness.run { harness in
            let total = 10_000, batch = 100
            let networkPaths = (0..<6).map { "/network-\($0).png" }
            for (index, path) in networkPaths.enumerated() {
                harness.serve(path, try ManagerTestImage.png(tint: UInt8(index)))
            }
            let memoryURL = harness.url("/memory.png")
            try await harness.cache.store(Image(bitmap: ManagerTestImage.bitmap(width: 4, height: 4, tint: 9)), forKey: memoryURL.absoluteString, scope: .memory)
            let diskURLs = (0..<4).map { harness.url("/disk-\($0).png") }
            for url in diskURLs {
                try await harness.cache.store(nil, data: try ManagerTestImage.png(tint: 5), forKey: url.absoluteString, scope: .disk)
            }
            let callbackQueue = DispatchQueue(label: "exactly-once.callbacks")
            let tally = Tally(count: total)
            var generator = SeededGenerator(seed: 12)
            var mayBeCancelled = [Bool](repeating: false, count: total)
            var operations: [ImageLoadOperation] = []
            operations.reserveCapacity(total)

            for start in stride(from: 0, to: total, by: batch) {
                let loads = start..<min(start + batch, total)
                for load in loads {
                    var request: ImageRequest
                    switch Source.allCases.randomElement(using: &generator)! {
                    case .memory:
                        request = ImageRequest(url: memoryURL)
                    case .disk:
                        // Scoped to disk, so the promoted memory copy never answers it.
                        request = ImageRequest(url: diskURLs.randomElement(using: &generator)!)
                        request.queryCacheType = .disk
                    case .network:
                        request = ImageRequest(url: harness.url(networkPaths.randomElement(using: &generator)!))
                        request.queryCacheType = .none
                        request.storeCacheType = .none
                    }
                    request.callbackQueue = callbackQueue
                    let operation = harness.manager.loadImage(with: request) { tally.record($0, for: load) }
                    operations.append(operation)
                    let cancel = Cancel.allCases.randomElement(using: &generator)!
                    mayBeCancelled[load] = cancel != .never
                    switch cancel {
                    case .never:
                        break
                    case .atOnce:
                        operation.cancel()
                    case .fromAnotherThread:
                        DispatchQueue.global().async { operation.cancel() }
                    case .afterYielding:
                        let turns = Int.random(in: 0..<20, using: &generator)
                        Task {
                            for _ in 0..<turns { await Task.yield() }
                            operation.cancel()
                        }
                    case .onTheCallbackQueue:
                        callbackQueue.async { operation.cancel() }
                    }
                }
                // Every tenth batch is also caught by a manager-wide cancel.
                if (start / batch) % 10 == 9 {
                    harness.manager.cancelAll()
                    for load in loads { mayBeCancelled[load] = true }
                }
                // A load that never answers fails here instead of hanging the suite.
                guard await eventually(within: 600, { tally.answered(loads) }) else {
                    Issue.record("loads \(loads) did not all answer")
                    return
                }
            }

            // Late answers would land on the callback queue after the last load ended.
            let settled = await eventually(within: 600) { !harness.manager.isRunning }
            #expect(settled)
            for operation in operations { operation.cancel() }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                callbackQueue.async { continuation.resume() }
            }

            let answers = tally.all
            let counts = answers.map(\.count)
            #expect(counts.filter { $0 != 1 }.isEmpty, "loads with other than one answer: \(counts.enumerated().filter { $0.element != 1 }.prefix(10))")
            let cancelled = answers.indices.filter { answers[$0].first?.error?.code == .cancelled }
            #expect(cancelled.allSatisfy { mayBeCancelled[$0] }, "only a cancelled load answers cancelled")
            #expect(cancelled.allSatisfy { answers[$0][0].image == nil })
            let failures = answers.joined().filter { $0.error != nil && $0.error?.code != .cancelled }
            #expect(failures.isEmpty, "no other failure: \(failures.prefix(3).map { String(describing: $0.error) })")
            let images = answers.joined().filter { $0.image != nil }
            #expect(images.count + cancelled.count == total)
            // The mix really exercised both outcomes of every source.
            #expect(cancelled.count > total / 4 && images.count > total / 4)
            #expect(Set(images.map(\.cacheType)) == [.memory, .disk, .none])
            #expect(Set(cancelled.compactMap { answers[$0][0].url?.path.hasPrefix("/network") }) == [true, false])
        }
    }

    @Test func aTransformedImageKeepsTheFormatOfTheImageItCameFrom() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png(width: 8, height: 6))
            harness.serve("/a.gif", try ImageCodersManager.shared.encode(Image(bitmap: ManagerTestImage.bitmap(width: 8, height: 6, tint: 1)), as: .gif))
            let transformers: [any ImageTransformer] = [
                ResizingImageTransformer(size: PixelSize(width: 4, height: 4), contentMode: .aspectFill),
                RotatingImageTransformer(degrees: 90),
                GrayscaleImageTransformer(),
            ]
            for transformer in transformers {
                for (path, format) in [("/a.png", ImageFormat.png), ("/a.gif", .gif)] {
                    let response = try await harness.load(ImageRequest(url: harness.url(path), transformer: transformer))
                    #expect(response.image?.format == format, "\(transformer.key) on \(path)")
                }
            }
        }
    }
}
