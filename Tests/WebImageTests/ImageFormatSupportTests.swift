import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport

/// What the coders manager lists, the `Accept` header built from it, and
/// `webimage info --formats`.
struct ImageFormatSupportTests {
    @Test func theFourCLibraryCodersListTheirFormats() {
        let manager = ImageCodersManager(coders: [JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder()])
        #expect(manager.decodableFormats == [.jpeg, .png, .gif, .webp])
        #expect(manager.supportedFormats.filter(\.encodes).map(\.format) == [.jpeg, .png, .gif, .webp])
        #expect(manager.acceptHeaderValue == "image/jpeg,image/png,image/gif,image/webp,*/*;q=0.8")
    }

    /// The formats the built-in coders decode in this build: the always-built ones plus
    /// one per package trait that is on, in ``ImageFormat``'s order.
    static var builtInFormats: [ImageFormat] {
        var formats: Set<ImageFormat> = [.jpeg, .png, .gif, .webp, .bmp, .ico]
        #if TIFF
        formats.insert(.tiff)
        #endif
        #if AVIF
        formats.insert(.avif)
        #endif
        #if HEIF
        formats.formUnion([.heic, .heif])
        #endif
        #if JXL
        formats.insert(.jxl)
        #endif
        #if SVG
        formats.insert(.svg)
        #endif
        return ImageFormat.allCases.filter(formats.contains)
    }

    @Test func builtInCodersIncludeTheFormatTargets() {
        let manager = ImageCodersManager()
        #expect(manager.decodableFormats == Self.builtInFormats)
        #expect(manager.acceptHeaderValue == (Self.builtInFormats.compactMap(\.mimeType) + ["*/*;q=0.8"]).joined(separator: ","))
        #if TIFF
        #expect(manager.supportedFormats.first { $0.format == .tiff } == ImageFormatSupport(format: .tiff, decodes: true, encodes: true))
        #endif
        #if AVIF
        #expect(manager.supportedFormats.first { $0.format == .avif } == ImageFormatSupport(format: .avif, decodes: true, encodes: true))
        #endif
        #if JXL
        #expect(manager.supportedFormats.first { $0.format == .jxl } == ImageFormatSupport(format: .jxl, decodes: true, encodes: true))
        #endif
        #if SVG
        #expect(manager.supportedFormats.first { $0.format == .svg } == ImageFormatSupport(format: .svg, decodes: true, encodes: false))
        #endif
        #expect(manager.supportedFormats.first { $0.format == .ico } == ImageFormatSupport(format: .ico, decodes: true, encodes: true))
        #expect(manager.supportedFormats.first { $0.format == .bmp } == ImageFormatSupport(format: .bmp, decodes: true, encodes: true))
        manager.removeCoders(ofType: BMPCoder.self)
        #expect(!manager.decodableFormats.contains(.bmp))
    }

    @Test func downloaderAcceptsWhatTheSharedManagerDecodes() {
        #expect(ImageDownloaderConfiguration().httpHeaders["Accept"] == ImageCodersManager.shared.acceptHeaderValue)
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
        #expect(formats == Self.builtInFormats.map(\.rawValue))
        #expect(rows.allSatisfy { $0["decode"] as? Bool == true })
        let none = try await CommandLineTool.run(["info"], scratch: folder.url)
        #expect(none.status != 0)
    }
}
