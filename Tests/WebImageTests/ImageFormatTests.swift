import Foundation
import Testing
@testable import WebImage

@Suite struct ImageFormatTests {
    @Test func sniffsSignatures() {
        #expect(ImageFormat(sniffing: Data([0xFF, 0xD8, 0xFF, 0xE0])) == .jpeg)
        #expect(ImageFormat(sniffing: Data()) == .undefined)
    }
}
