import Foundation
import Testing
import WebImageCoders
import WebImageCore
import WebImageTestSupport

/// One rule for "is this an image": the header check a prefetch makes before storing bytes
/// (`ImageCodersManager.checkHeader(of:options:)`) never refuses a file the decoder reads.
/// It decodes some 2,400 corpus files, so it runs under AddressSanitizer only, with the
/// other corpus suites.
@Suite("Prefetch header check agrees with the decoder", Corpus.required, Corpus.skippedUnderThreadSanitizer)
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
