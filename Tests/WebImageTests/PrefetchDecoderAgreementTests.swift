import Foundation
import Testing
import WebImageTestSupport
import WebImage

/// One rule for "is this an image": the header check a prefetch makes before storing bytes
/// (`ImageCodersManager.checkHeader(of:options:)`) never refuses a file the decoder reads.
@Suite("Prefetch header check agrees with the decoder", .enabled(if: Corpus.isAvailable, "needs ../shared/corpora"))
struct PrefetchDecoderAgreementTests {
    @Test func everyCorpusJPEGPNGGIFAndWebPThatDecodesPassesTheHeaderCheck() throws {
        let extensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp"]
        let paths = Corpus.relativePaths(under: ".", extensions: extensions)
        #expect(paths.count > 500, "the corpora hold hundreds of such files")
        let coders = ImageCodersManager.shared
        let options = ImageDecodeOptions()
        var refusedButDecoded: [String] = []
        var passedButRefused = 0
        for path in paths {
            let data = try Corpus.data(path)
            let header = Result { () throws(ImageError) in try coders.checkHeader(of: data, options: options) }
            let decodes = (try? coders.decode(data, options: options)) != nil
            switch (header, decodes) {
            case (.failure(let error), true):
                refusedButDecoded.append("\(path): \(error.message)")
            case (.success, false):
                // Damage past the header (a truncated scan, a broken frame) needs the
                // decode to show; the header check cannot refuse it.
                passedButRefused += 1
            default:
                break
            }
        }
        #expect(refusedButDecoded.isEmpty, "refused by the header check but decoded:\n\(refusedButDecoded.joined(separator: "\n"))")
        print("[agreement] \(paths.count) files; \(passedButRefused) pass the header check and fail to decode")
    }
}
