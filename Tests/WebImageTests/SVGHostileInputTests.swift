#if SVG
import Foundation
import LoopbackHTTPServer
import Testing
import WebImage

/// Hostile SVG documents: each is refused with a typed error or rendered without loading
/// anything, while a loopback server that would serve every external reference (a red
/// image) records that it was asked nothing.
@Suite(.serialized)
struct SVGHostileInputTests {
    let coder = SVGCoder()

    /// An opaque red 8×8 PNG: any pixel of it in a rendering means an external reference
    /// was loaded.
    static let redPNG: Data = {
        let pixels = Array([[UInt8]](repeating: [255, 0, 0, 255], count: 8 * 8).joined())
        let image = Image(bitmap: Bitmap(width: 8, height: 8, pixels: pixels))
        return (try? PNGCoder().encode(image, as: .png, options: ImageEncodeOptions())) ?? Data()
    }()

    /// A 100×100 document whose body covers the canvas with whatever it references.
    static func document(_ body: String, prolog: String = "") -> String {
        prolog
            + #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" "#
            + #"xmlns:xi="http://www.w3.org/2001/XInclude" width="100" height="100">\#(body)</svg>"#
    }

    /// The hostile documents by name, referring to `origin` (the loopback server) and
    /// `file` (a red PNG on disk).
    static func hostileDocuments(origin: String, file: String) -> [(String, String)] {
        let cover = #"x="0" y="0" width="100" height="100""#
        let laughs = (1...9).map { level in
            "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }.joined()
        let depth = 100_000
        return [
            ("image href http", document(#"<image href="\#(origin)/red.png" \#(cover)/>"#)),
            ("image xlink:href http", document(#"<image xlink:href="\#(origin)/red.png" \#(cover)/>"#)),
            ("image file URL", document(#"<image href="file://\#(file)" \#(cover)/>"#)),
            ("image /etc/passwd", document(#"<image href="file:///etc/passwd" \#(cover)/>"#)),
            ("image relative", document(#"<image href="red.png" \#(cover)/>"#)),
            ("image absolute path", document(#"<image href="\#(file)" \#(cover)/>"#)),
            ("use http", document(#"<use href="\#(origin)/defs.svg#r"/>"#)),
            ("fill url http", document(#"<rect \#(cover) fill="url(\#(origin)/paint.svg#p)"/>"#)),
            ("CSS import", document(#"<style>@import url("\#(origin)/style.css");</style><rect \#(cover)/>"#)),
            ("CSS background", document(#"<style>rect { fill: url(\#(origin)/paint.svg#p) }</style><rect \#(cover)/>"#)),
            ("feImage http", document(#"<filter id="f"><feImage href="\#(origin)/red.png"/></filter><rect \#(cover) filter="url(#f)"/>"#)),
            ("XInclude http", document(#"<text y="50"><xi:include href="\#(origin)/text.txt" parse="text"/></text>"#)),
            ("XInclude passwd", document(#"<text y="50"><xi:include href="file:///etc/passwd" parse="text"/></text>"#)),
            (
                "external entity http",
                document("<text y=\"50\">&x;</text>", prolog: "<!DOCTYPE svg [<!ENTITY x SYSTEM \"\(origin)/entity.txt\">]>")
            ),
            (
                "external entity passwd",
                document("<text y=\"50\">&x;</text>", prolog: "<!DOCTYPE svg [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>")
            ),
            ("external DTD", document("<rect/>", prolog: "<!DOCTYPE svg SYSTEM \"\(origin)/svg.dtd\">")),
            ("script", document(#"<script>fetch("\#(origin)/script")</script><rect \#(cover) onload="fetch('\#(origin)/onload')"/>"#)),
            (
                "billion laughs",
                document("<text y=\"50\">&l9;</text>", prolog: "<!DOCTYPE svg [<!ENTITY l0 \"laugh\">\(laughs)]>")
            ),
            ("100,000-deep nesting", document(String(repeating: "<g>", count: depth) + String(repeating: "</g>", count: depth))),
            ("huge viewBox", #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e9 1e9"><rect width="1e9" height="1e9"/></svg>"#),
            (
                "huge size and viewBox",
                #"<svg xmlns="http://www.w3.org/2000/svg" width="1e9" height="1e9" viewBox="0 0 1e9 1e9"><rect width="1e9" height="1e9"/></svg>"#
            ),
        ]
    }

    /// Whether any pixel of `bitmap` is the red of ``redPNG``.
    static func containsRed(_ bitmap: Bitmap) -> Bool {
        stride(from: 0, to: bitmap.pixels.count, by: 4).contains { index in
            bitmap.pixels[index] > 200 && bitmap.pixels[index + 1] < 60 && bitmap.pixels[index + 2] < 60 && bitmap.pixels[index + 3] > 200
        }
    }

    /// The same red image inlined as a `data:` URL is drawn: the check for red would see an
    /// external image that had been loaded.
    @Test func dataURLImagesAreDrawn() throws {
        let body = #"<image href="data:image/png;base64,\#(Self.redPNG.base64EncodedString())" width="100" height="100"/>"#
        let image = try coder.decode(Data(Self.document(body).utf8), options: ImageDecodeOptions())
        #expect(image.bitmap.rgba8(x: 50, y: 50) == RGBA8(red: 255, green: 0, blue: 0))
    }

    @Test func hostileDocumentsLoadNothing() async throws {
        let server = try await LoopbackHTTPServer.start()
        for path in ["/red.png", "/defs.svg", "/paint.svg", "/style.css", "/text.txt", "/entity.txt", "/svg.dtd", "/script", "/onload"] {
            server.route(path) { _, response in
                await response.respond(headers: [("Content-Type", "image/png")], body: Array(Self.redPNG))
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("svg-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("red.png")
        try Self.redPNG.write(to: file)

        let origin = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var outcomes: [String] = []
        for (name, text) in Self.hostileDocuments(origin: origin, file: file.path) {
            let data = Data(text.utf8)
            for options in [ImageDecodeOptions(), ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64))] {
                let start = ContinuousClock.now
                do {
                    let image = try coder.decode(data, options: options)
                    #expect(!Self.containsRed(image.bitmap), "\(name): an external image was drawn")
                    #expect(image.bitmap.size.pixelCount ?? .max <= options.maxPixelCount, "\(name)")
                    outcomes.append("\(name): rendered \(image.pixelSize) in \(ContinuousClock.now - start)")
                } catch {
                    #expect([.badImageData, .imageTooLarge].contains(error.code), "\(name): \(error)")
                    outcomes.append("\(name): refused (\(error.code)) in \(ContinuousClock.now - start)")
                }
            }
        }
        // librsvg works synchronously, so any fetch it started would have arrived by now.
        #expect(server.requests.isEmpty, "requests: \(server.requests.map(\.path))")
        print("SVG hostile documents:\n" + outcomes.joined(separator: "\n"))
        try await server.stop()
    }

    /// Billion laughs and the 100,000-deep nesting are refused by the parser's limits, not
    /// rendered after expanding.
    @Test func expansionAndNestingAreRefused() throws {
        let documents = Dictionary(uniqueKeysWithValues: Self.hostileDocuments(origin: "http://127.0.0.1:9", file: "/nonexistent"))
        for name in ["billion laughs", "100,000-deep nesting"] {
            let data = Data(try #require(documents[name]).utf8)
            #expect(throws: ImageError.self, "\(name)") { try coder.decode(data, options: ImageDecodeOptions()) }
        }
    }
}
#endif
