import Foundation
import Testing
@testable import WebImage

/// What the coders manager lists, the `Accept` header built from it, and
/// `webimage info --formats`.
struct ImageFormatSupportTests {
    @Test func theFourCLibraryCodersListTheirFormats() {
        let manager = ImageCodersManager(coders: [JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder()])
        #expect(manager.decodableFormats == [.jpeg, .png, .gif, .webp])
        #expect(manager.supportedFormats.filter(\.encodes).map(\.format) == [.jpeg, .png, .gif, .webp])
        #expect(manager.acceptHeaderValue == "image/jpeg,image/png,image/gif,image/webp,*/*;q=0.8")
    }

    @Test func builtInCodersIncludeTheFormatTargets() {
        let manager = ImageCodersManager()
        #if TIFF
        #expect(manager.decodableFormats == [.jpeg, .png, .gif, .tiff, .webp, .bmp, .ico])
        #expect(
            manager.acceptHeaderValue
                == "image/jpeg,image/png,image/gif,image/tiff,image/webp,image/bmp,image/x-icon,*/*;q=0.8")
        #expect(manager.supportedFormats.first { $0.format == .tiff } == ImageFormatSupport(format: .tiff, decodes: true, encodes: true))
        #else
        #expect(manager.decodableFormats == [.jpeg, .png, .gif, .webp, .bmp, .ico])
        #expect(manager.acceptHeaderValue == "image/jpeg,image/png,image/gif,image/webp,image/bmp,image/x-icon,*/*;q=0.8")
        #endif
        #expect(manager.supportedFormats.first { $0.format == .ico } == ImageFormatSupport(format: .ico, decodes: true, encodes: true))
        #expect(manager.supportedFormats.first { $0.format == .bmp } == ImageFormatSupport(format: .bmp, decodes: true, encodes: true))
        manager.removeCoders(ofType: BMPCoder.self)
        #expect(!manager.decodableFormats.contains(.bmp))
    }

    @Test func downloaderAcceptsWhatTheSharedManagerDecodes() {
        #expect(ImageDownloaderConfig().httpHeaders["Accept"] == ImageCodersManager.shared.acceptHeaderValue)
        #expect(ImageCodersManager.shared.acceptHeaderValue.hasSuffix(",*/*;q=0.8"))
    }

    @Test func infoPrintsTheFormatsTable() async throws {
        let folder = TemporaryDirectory()
        let text = try await CommandLineTool.run(["info", "--formats"], scratch: folder.url)
        #expect(text.status == 0)
        #expect(text.lines.first == "format mime type      decode encode")
        #expect(text.lines.contains("bmp    image/bmp      yes    yes"))
        #expect(text.lines.contains("ico    image/x-icon   yes    yes"))
        let json = try await CommandLineTool.run(["info", "--formats", "--json"], scratch: folder.url)
        let rows = try json.jsonLines()
        let formats = rows.compactMap { $0["format"] as? String }
        #if TIFF
        #expect(formats == ["jpeg", "png", "gif", "tiff", "webp", "bmp", "ico"])
        #else
        #expect(formats == ["jpeg", "png", "gif", "webp", "bmp", "ico"])
        #endif
        #expect(rows.allSatisfy { $0["decode"] as? Bool == true })
        let none = try await CommandLineTool.run(["info"], scratch: folder.url)
        #expect(none.status != 0)
    }
}
