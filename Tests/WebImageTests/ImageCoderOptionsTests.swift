import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageCoderOptions", .timeLimit(.minutes(15)))
struct ImageCoderOptionsTests {
    private enum QualityKey: ImageCoderOptionKey {
        static let defaultValue = 3
    }

    @Test func aKeyReadsItsDefaultUntilSetAndOptionsCompareByValue() {
        var options = ImageCoderOptions()
        #expect(options.isEmpty && options[QualityKey.self] == 3 && options[DecodeLabelKey.self] == "none")
        options[QualityKey.self] = 9
        #expect(options[QualityKey.self] == 9 && !options.isEmpty)
        var same = ImageCoderOptions()
        same[QualityKey.self] = 9
        #expect(options == same && options.hashValue == same.hashValue)
        same[QualityKey.self] = 8
        #expect(options != same)
        same.removeValue(for: QualityKey.self)
        #expect(same == ImageCoderOptions() && same[QualityKey.self] == 3)
    }

    @Test func aRequestsCoderOptionsReachTheCoderFromTheNetworkAndFromDisk() async throws {
        let coder = OptionRecordingCoder()
        let coders = ImageCodersManager(coders: [coder])
        try await ManagerTestHarness.run(configure: { $0.coders = coders }) { harness in
            harness.serve("/a.raw", try RawTestCoder().encode(RawTestCoder.image(width: 3, height: 2), as: .png, options: ImageEncodeOptions()))
            let url = harness.url("/a.raw")
            let cache = ImageCache(namespace: "coder-options", directory: harness.folder.url, coders: coders)
            var request = ImageRequest(url: url)
            request.coderOptions[DecodeLabelKey.self] = "network"
            #expect(request.decodeOptions.coderOptions[DecodeLabelKey.self] == "network")
            let downloaded = try await harness.load(request, with: ImageManager(cache: cache, loader: harness.downloader))
            #expect(downloaded.cacheType == .none && downloaded.image?.pixelSize == PixelSize(width: 3, height: 2))
            #expect(coder.decodedLabels == ["network"])

            let fresh = ImageCache(namespace: "coder-options", directory: harness.folder.url, coders: coders)
            request.coderOptions[DecodeLabelKey.self] = "disk"
            let fromDisk = try await harness.load(request, with: ImageManager(cache: fresh, loader: harness.downloader))
            #expect(fromDisk.cacheType == .disk)
            #expect(coder.decodedLabels == ["network", "disk"])
            #expect(harness.manager.cacheKey(for: request) == url.absoluteString, "coder options do not change the key")
        }
    }
}
