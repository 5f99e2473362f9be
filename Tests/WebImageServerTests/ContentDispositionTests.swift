import Foundation
import Testing
@testable import WebImageServer

/// `filename=` and `attachment` as a `Content-Disposition`: the name sanitised, written as
/// RFC 6266's `filename` and `filename*`.
@Suite struct ContentDispositionTests {
    @Test func aNameIsWrittenPlainAndInUTF8() throws {
        let inline = try ContentDisposition(filename: "My Photo ü.png", isAttachment: false)
        #expect(inline.headerValue(for: .png) == "inline; filename=\"My_Photo_.png\"; filename*=UTF-8''My%20Photo%20%C3%BC.png")
        let download = try ContentDisposition(filename: "a.png", isAttachment: true)
        #expect(download.headerValue(for: .png) == "attachment; filename=\"a.png\"; filename*=UTF-8''a.png")
        #expect(try ContentDisposition(filename: nil, isAttachment: true).headerValue(for: .png) == "attachment")
    }

    @Test(arguments: [
        ("../../etc/passwd", "_.._etc_passwd"),
        ("a\\b.png", "a_b.png"),
        ("say \"cheese\".png", "say _cheese_.png"),
        ("a\r\nSet-Cookie: x=1.png", "aSet-Cookie: x=1.png"),
        ("evil\u{202E}gnp.exe", "evilgnp.exe"),
        ("\u{0}\u{7F}\u{85}tab\there.png", "tabhere.png"),
        ("  .hidden.png ", "hidden.png"),
    ])
    func separatorsQuotesAndControlsNeverReachTheHeader(name: String, sanitised: String) throws {
        let disposition = try ContentDisposition(filename: name, isAttachment: false)
        #expect(disposition.filename == sanitised)
        let header = disposition.headerValue(for: .png)
        let quoted = header.split(separator: "\"")
        // Two quotes exactly: around the plain name, which holds nothing else to escape.
        #expect(quoted.count == 3, "\(header)")
        #expect(!header.unicodeScalars.contains { $0.value < 0x20 || $0.value >= 0x7F }, "\(header)")
        #expect(!header.contains("/") && !header.contains("\\"), "\(header)")
    }

    @Test func theNameTakesTheAnswersExtension() throws {
        #expect(ContentDisposition.named("invoice.html", as: .png) == "invoice.png")
        #expect(ContentDisposition.named("photo", as: .webp) == "photo.webp")
        #expect(ContentDisposition.named("holiday.2026.png", as: .jpeg) == "holiday.2026.jpg")
        #expect(ContentDisposition.named("x.png", as: .undefined) == "x")
        let page = try ContentDisposition(filename: "invoice.html", isAttachment: true)
        #expect(page.headerValue(for: .png) == "attachment; filename=\"invoice.png\"; filename*=UTF-8''invoice.png")
    }

    @Test func aNameWithNothingLeftOrTooLongIsRefused() {
        for name in ["..", " ", "\u{0}\r\n", String(repeating: "a", count: ContentDisposition.maximumFilenameLength + 1)] {
            #expect(throws: ImageServerError.self, "\(name)") { try ContentDisposition(filename: name, isAttachment: false) }
        }
    }
}
