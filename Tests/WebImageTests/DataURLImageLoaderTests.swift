import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("DataURLImageLoader")
struct DataURLImageLoaderTests {
    private let loader = DataURLImageLoader(coders: ImageCodersManager(coders: [RawRGBATestCoder()]))

    @Test func decodesABase64DataURL() async throws {
        let bytes = RawRGBATestCoder.encode(width: 2, height: 2, blue: 9)
        let url = try #require(URL(string: "data:image/x-raw;base64," + Data(bytes).base64EncodedString()))
        #expect(loader.canLoad(url))
        let result = try await loader.loadImage(ImageLoadRequest(url: url))
        #expect(result.data == Data(bytes))
        #expect(Array(try #require(result.image).bitmap.pixels[12..<16]) == [1, 1, 9, 255])
    }

    @Test func aBytesOnlyRequestIsNotDecoded() async throws {
        let bytes = RawRGBATestCoder.encode(width: 1, height: 1, blue: 3)
        let url = try #require(URL(string: "data:;base64," + Data(bytes).base64EncodedString()))
        let result = try await loader.loadImage(ImageLoadRequest(url: url, decodesImage: false))
        #expect(result.data == Data(bytes))
        #expect(result.image == nil)
    }

    @Test func decodesAPercentEncodedDataURL() async throws {
        let bytes = RawRGBATestCoder.encode(width: 1, height: 1, blue: 200)
        let encoded = bytes.map { String(format: "%%%02X", $0) }.joined()
        let url = try #require(URL(string: "data:," + encoded))
        let result = try await loader.loadImage(ImageLoadRequest(url: url))
        #expect(result.data == Data(bytes))
        #expect(try #require(result.image).bitmap.pixels == [0, 0, 200, 255])
    }

    @Test func malformedDataURLsAreInvalid() async throws {
        for text in ["data:image/png;base64", "data:;base64,QQ", "data:;base64,Q==="] {
            let url = try #require(URL(string: text))
            let error = await capturedError { () async throws(ImageError) in try await loader.loadImage(ImageLoadRequest(url: url)) }
            #expect(error?.code == .invalidURL, "\(text)")
        }
    }
}
