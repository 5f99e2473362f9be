#if JXL
import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// JPEG XL from the server: a JPEG with no other step is recompressed without loss (the
/// `jbrd` box, from which `djxl` rebuilds a JPEG of the source's pixels), anything else is
/// encoded from pixels, and `format=auto` answers JPEG XL by the operator's order of
/// preference to a client that accepts it.
@Suite("ImageServer JPEG XL", .serialized, .timeLimit(.minutes(20)))
struct ImageServerJXLTests {
    /// A 4:2:0 JPEG of a 200×120 picture.
    static func jpeg() throws -> Data {
        try ImageCodersManager.shared.encode(
            Image(bitmap: ManagerTestImage.bitmap(width: 200, height: 120, tint: 90)), as: .jpeg, options: ImageEncodeOptions(quality: 0.8))
    }

    @Test(JXLReconstruction.required)
    func aJPEGWithNoOtherStepIsRecompressedAndAResizeIsEncoded() async throws {
        let source = try Self.jpeg()
        let scratch = TemporaryDirectory(prefix: "server-jxl")
        try await ImageServerHarness.run { harness in
            harness.serve("/a.jpg", source, contentType: "image/jpeg")
            let answer = try await harness.get(harness.path("format=jxl", source: "/a.jpg"))
            #expect(answer.status == 200)
            #expect(answer.headers.first(name: "Content-Type") == "image/jxl")
            #expect(JXLReconstruction.boxTypes(of: answer.body).contains("jbrd"))
            #expect(try JXLReconstruction.jpeg(from: answer.body, in: scratch.url) == source)
            let resized = try await harness.get(harness.path("resize=100|format=jxl", source: "/a.jpg"))
            #expect(resized.status == 200)
            #expect(!JXLReconstruction.boxTypes(of: resized.body).contains("jbrd"))
            #expect(try resized.image().pixelWidth == 100)
        }
    }

    @Test func formatAutoAnswersJPEGXLToAClientThatAcceptsOnlyIt() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.jpg", try Self.jpeg(), contentType: "image/jpeg")
            harness.serve("/a.png", try ImageServerHarness.png())
            for source in ["/a.jpg", "/a.png"] {
                let answer = try await harness.get(harness.path("format=auto", source: source), headers: [("Accept", "image/jxl")])
                #expect(answer.status == 200)
                #expect(answer.headers.first(name: "Content-Type") == "image/jxl", "\(source)")
                #expect(answer.headers.first(name: "Vary") == "Accept")
                #expect(try answer.image().format == .jxl)
            }
            // The default order puts JPEG XL first, and AVIF before WebP.
            let all = try await harness.get(harness.path("format=auto", source: "/a.png"), headers: [("Accept", "image/webp,image/avif,image/jxl")])
            #expect(all.headers.first(name: "Content-Type") == "image/jxl")
        }
    }

    @Test func theOrderOfPreferenceIsTheOperators() async throws {
        try await ImageServerHarness.run(configure: { $0.autoFormats = [.jxl, .webp] }) { harness in
            harness.serve("/a.jpg", try Self.jpeg(), contentType: "image/jpeg")
            let path = harness.path("format=auto", source: "/a.jpg")
            let jxl = try await harness.get(path, headers: [("Accept", "image/avif,image/webp,image/jxl")])
            #expect(jxl.headers.first(name: "Content-Type") == "image/jxl")
            let webp = try await harness.get(path, headers: [("Accept", "image/avif,image/webp")])
            #expect(webp.headers.first(name: "Content-Type") == "image/webp", "AVIF is not on the operator's list")
            let plain = try await harness.get(path, headers: [("Accept", "image/avif")])
            #expect(plain.headers.first(name: "Content-Type") == "image/jpeg", "none accepted: the source's own format")
            #expect(plain.headers.first(name: "Vary") == "Accept")
        }
    }

    /// Upright corpus JPEGs of 20 KB to 3 MB and up to 12 MP: those without an ICC profile
    /// (or with one of sRGB) under plain `format=jxl`, the other with `icc=keep`. (The
    /// 12 MP `sdwebimage/TestJFIF.jpg` is not upright: its XMP says orientation 3.)
    static let corpusPhotos: [(path: String, spec: String)] = [
        ("wuffs-test-data/harvesters.jpeg", "format=jxl"),
        ("wuffs-test-data/hibiscus.regular.jpeg", "format=jxl"),
        ("wuffs-test-data/hibiscus.primitive.jpeg", "format=jxl"),
        ("link-u-avif-samples/kimono.jpg", "format=jxl"),
        ("exif-orientation-examples/Landscape_1.jpg", "format=jxl"),
        ("exif-orientation-examples/Portrait_1.jpg", "format=jxl"),
        ("sdwebimage/TestHDR.jpeg", "format=jxl"),
        ("ultrahdr-samples/gainmap-js/spruit_sunrise_4k.jpg", "format=jxl"),
        ("ultrahdr-samples/vearutop-ultrahdr/uhdr.vips_thumb.jpg", "format=jxl"),
        ("ultrahdr-samples/sharp/gain-map.jpg", "format=jxl,icc=keep"),
    ]

    @Test(Corpus.required, JXLReconstruction.required)
    func corpusJPEGsAreRecompressedToTheirOwnPixelsInAtMost085OfTheirBytes() async throws {
        let scratch = TemporaryDirectory(prefix: "server-jxl-corpus")
        var sourceBytes = 0, resultBytes = 0
        try await ImageServerHarness.run { harness in
            for (path, spec) in Self.corpusPhotos {
                let source = try Corpus.data(path)
                harness.serve("/\(path)", source, contentType: "image/jpeg")
                let answer = try await harness.get(harness.path(spec, source: "/\(path)"))
                try #require(answer.status == 200, "\(path): \(answer.status)")
                #expect(JXLReconstruction.boxTypes(of: answer.body).contains("jbrd"), "\(path)")
                let rebuilt = try JXLReconstruction.jpeg(from: answer.body, in: scratch.url)
                let expected = try JPEGCoder().decode(source, options: ImageDecodeOptions())
                let decoded = try JPEGCoder().decode(rebuilt, options: ImageDecodeOptions())
                #expect(decoded.bitmap == expected.bitmap, "\(path): the rebuilt JPEG's pixels differ")
                sourceBytes += source.count
                resultBytes += answer.body.count
            }
        }
        let ratio = Double(resultBytes) / Double(sourceBytes)
        print("JPEG XL recompression of \(Self.corpusPhotos.count) corpus JPEGs: \(resultBytes) of \(sourceBytes) bytes, \(ratio)x")
        #expect(ratio <= 0.85)
    }

    /// libjxl 0.7 refuses this JPEG's colour data (with `icc=keep` its profile is refused by
    /// the pixel encode too, as before).
    @Test(Corpus.required)
    func aJPEGLibjxlRefusesFallsBackToAnEncode() async throws {
        let source = try Corpus.data("sdwebimage/TestICCProfile.jpg")
        try await ImageServerHarness.run { harness in
            harness.serve("/icc.jpg", source, contentType: "image/jpeg")
            let answer = try await harness.get(harness.path("format=jxl", source: "/icc.jpg"))
            #expect(answer.status == 200)
            #expect(!JXLReconstruction.boxTypes(of: answer.body).contains("jbrd"))
            let image = try answer.image()
            #expect(image.format == .jxl)
            #expect(image.pixelSize == PixelSize(width: 400, height: 300))
        }
    }
}
#endif
