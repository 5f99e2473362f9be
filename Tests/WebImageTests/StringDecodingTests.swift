import Foundation
import Testing
import WebImage

/// The native percent-decoding and trimming answer as Foundation's do.
struct StringDecodingTests {
    @Test(arguments: [
        "resize=400", "resize%3D400%7Cformat%3Dwebp", "http%3A%2F%2Fexample.com%2Fa%20b.jpg", "%E2%82%AC", "caf%C3%A9",
        "bad%zz", "cut%4", "cut%", "%FF", "%C3", "%00", "", "%25", "plain%2Fa%2fb",
    ])
    func percentDecodingAnswersAsFoundation(text: String) {
        #expect(text.percentDecoded == text.removingPercentEncoding)
        #expect(text[...].percentDecoded == text.removingPercentEncoding)
    }

    @Test(arguments: [
        "resize=400", "  fill ", "\tq=80\t", " \u{00A0}crop\u{2003} ", "", "   ", "a b", " \n x \n ",
    ])
    func trimmingAnswersAsFoundation(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text[...].trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }
}
