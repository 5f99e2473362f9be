import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// imgproxy's URLs read into the server's own spec: each option with the native spec it
/// becomes (the example from imgproxy's documentation where it gives one), its defaults,
/// the path forms, and the answers to what cannot be read.
@Suite("imgproxy dialect")
struct ImgproxyDialectTests {
    static let source = "plain/http://example.com/a.jpg"
    /// What every spec ends with under imgproxy's defaults: the source's format at
    /// quality 80, copyright kept.
    static let defaults = "format=auto,q=80|keep_copyright"

    /// The native spec `options` (segments joined by `/`) become over the plain source.
    static func spec(
        _ options: String, configuration: ImgproxyConfiguration = ImgproxyConfiguration(), accept: String? = nil,
        hasWatermark: Bool = false
    ) throws -> String {
        let dialect = try ImgproxyDialect(configuration, hasWatermark: hasWatermark)
        let path = options.isEmpty ? "/insecure/\(source)" : "/insecure/\(options)/\(source)"
        return try dialect.request(path: path, accept: accept).spec
    }

    /// The status reading `options` answers.
    static func status(_ options: String, configuration: ImgproxyConfiguration = ImgproxyConfiguration()) -> Int? {
        do {
            _ = try spec(options, configuration: configuration)
            return nil
        } catch let error as ImageServerError {
            return Int(error.status.code)
        } catch {
            return -1
        }
    }

    @Test func defaultsAreImgproxys() throws {
        #expect(try Self.spec("") == Self.defaults)
        // What the PyPI builder writes with no size: gravity and an auto resize of nothing.
        #expect(try Self.spec("g:ce/rs:auto:0:0:0") == Self.defaults)
    }

    @Test func resize() throws {
        // The docs' example: rs:fill:300:400:0 with g:sm.
        #expect(try Self.spec("rs:fill:300:400:0/g:sm") == "resize=300x400,fill,noenlarge,smart|\(Self.defaults)")
        #expect(try Self.spec("resize:fit:300:300") == "resize=300x300,inside,noenlarge|\(Self.defaults)")
        // Omitted arguments keep their defaults: the type stays fit.
        #expect(try Self.spec("rs::300:200") == "resize=300x200,inside,noenlarge|\(Self.defaults)")
        #expect(try Self.spec("rs:force:300:200:1") == "resize=300x200,stretch|\(Self.defaults)")
        #expect(try Self.spec("rs:auto:300:200") == "resize=300x200,auto,noenlarge|\(Self.defaults)")
        #expect(try Self.spec("rs:fit:300:200:0:1:so") == "resize=300x200,inside,noenlarge|extend=300x200,bottom|\(Self.defaults)")
        #expect(Self.status("rs:stretch:300:200") == 404)
        #expect(Self.status("rs:fit:1:2:3:4:5:6:7:8") == 404)
    }

    @Test func sizeWidthHeightAndResizingType() throws {
        #expect(try Self.spec("s:300:400:1") == "resize=300x400,inside|\(Self.defaults)")
        #expect(try Self.spec("size:300") == "resize=300,noenlarge|\(Self.defaults)")
        #expect(try Self.spec("rt:fill/w:300/h:300") == "resize=300x300,fill,noenlarge|\(Self.defaults)")
        #expect(try Self.spec("resizing_type:force/width:200/height:100") == "resize=200x100,stretch,noenlarge|\(Self.defaults)")
        #expect(try Self.spec("h:150/el:1") == "resize=x150|\(Self.defaults)")
        #expect(try Self.spec("w:100/w:200") == "resize=200,noenlarge|\(Self.defaults)", "a later option wins")
        #expect(try Self.spec("rt:fill-down/el:1/w:300/h:300") == "resize=300x300,fill|\(Self.defaults)")
        #expect(Self.status("rt:fill-down/w:300/h:300") == 400)
        #expect(Self.status("w:-5") == 404)
        #expect(Self.status("w:abc") == 404)
    }

    @Test func minimumSizesAreNotServedYet() {
        #expect(Self.status("mw:200") == 400)
        #expect(Self.status("min-height:200") == 400)
    }

    @Test func zoomAndDevicePixelRatio() throws {
        #expect(try Self.spec("z:1.5/w:200/h:100") == "resize=300x150,inside,noenlarge|\(Self.defaults)")
        #expect(try Self.spec("zoom:2:0.5/w:200/h:100") == "resize=400x50,inside,noenlarge|\(Self.defaults)")
        #expect(Self.status("z:2") == 400, "zoom of the source's own size needs that size")
        #expect(Self.status("z:0") == 404)
        #expect(try Self.spec("dpr:2/w:100") == "resize=100,noenlarge|format=auto,q=80|dpr=2|keep_copyright")
        #expect(Self.status("dpr:8/w:100") == 400)
    }

    @Test func enlargeAndExtend() throws {
        #expect(try Self.spec("el:1/rs:fit:300:300") == "resize=300x300,inside|\(Self.defaults)")
        #expect(try Self.spec("el:yes/rs:fit:300:300") == "resize=300x300,inside,noenlarge|\(Self.defaults)", "not a Go boolean: false")
        #expect(try Self.spec("ex:1/rs:fit:300:200") == "resize=300x200,inside,noenlarge|extend=300x200,center|\(Self.defaults)")
        #expect(
            try Self.spec("extend:1:noea/bg:ffffff/rs:fit:300:200")
                == "resize=300x200,inside,noenlarge|extend=300x200,topright,bg=ffffff|format=auto,q=80,bg=ffffff|keep_copyright")
        #expect(Self.status("ex:1:sm/rs:fit:300:200") == 404)
        #expect(Self.status("ex:1/w:300") == 400)
        #expect(Self.status("exar:1/rs:fit:300:200") == 400)
        #expect(try Self.spec("exar:0/rs:fit:300:200") == "resize=300x200,inside,noenlarge|\(Self.defaults)")
    }

    @Test func gravity() throws {
        #expect(try Self.spec("g:fp:0.5:0.25/rs:fill:100:100") == "resize=100x100,fill,noenlarge,gravity=fp:0.5:0.25|\(Self.defaults)")
        #expect(try Self.spec("gravity:sowe/rs:fill:100:100") == "resize=100x100,fill,noenlarge,gravity=bottomleft|\(Self.defaults)")
        #expect(try Self.spec("g:sm/rs:fill:100:100") == "resize=100x100,fill,noenlarge,smart|\(Self.defaults)")
        #expect(Self.status("g:no:10:20/rs:fill:100:100") == 400, "offsets are not served yet")
        #expect(Self.status("g:fp:2:0") == 404)
        #expect(Self.status("g:sm:1") == 404)
        #expect(Self.status("g:up") == 404)
    }

    @Test func crop() throws {
        #expect(try Self.spec("c:100:200:nowe") == "crop=100x200,topleft|\(Self.defaults)")
        #expect(try Self.spec("g:fp:0.3:0.7/crop:300:300") == "crop=300x300,fp:0.3:0.7|\(Self.defaults)")
        #expect(try Self.spec("c:300:300:sm/rs:fit:100:100") == "crop=300x300,smart|resize=100x100,inside,noenlarge|\(Self.defaults)")
        #expect(Self.status("c:0.5:0.5") == 400)
        #expect(Self.status("c:100") == 400)
        #expect(Self.status("c:-1:10") == 404)
    }

    @Test func trimAndPadding() throws {
        #expect(try Self.spec("t:10") == "trim=10|\(Self.defaults)")
        #expect(Self.status("t:10:FF00FF:1:1") == 400)
        #expect(try Self.spec("pd:10") == "pad=10,10,10,10|\(Self.defaults)")
        #expect(try Self.spec("pd:10:20") == "pad=10,20,10,20|\(Self.defaults)")
        #expect(try Self.spec("padding:1:2:3") == "pad=1,2,3,2|\(Self.defaults)")
        #expect(
            try Self.spec("pd:10:10:10:10/bg:F00")
                == "pad=10,10,10,10,bg=f00|format=auto,q=80,bg=f00|keep_copyright", "the PyPI builder's README example")
    }

    @Test func rotationAndBackground() throws {
        #expect(try Self.spec("rot:90") == "rotate=90|\(Self.defaults)")
        #expect(try Self.spec("rotate:-90") == "rotate=270|\(Self.defaults)")
        #expect(Self.status("rot:45") == 404)
        #expect(Self.status("ar:0") == 400)
        #expect(try Self.spec("ar:1") == Self.defaults)
        #expect(try Self.spec("bg:255:0:0") == "format=auto,q=80,bg=ff0000|keep_copyright")
        #expect(try Self.spec("background:ff0000/bg:") == Self.defaults, "an empty background removes it")
        #expect(Self.status("bg:256:0:0") == 404)
        #expect(Self.status("bg:zz") == 404)
    }

    @Test func filters() throws {
        #expect(try Self.spec("bl:10") == "blur=10|\(Self.defaults)")
        #expect(try Self.spec("sh:0.5") == "sharpen=0.5|\(Self.defaults)")
        #expect(try Self.spec("pix:5") == "pixelate=5|\(Self.defaults)")
        #expect(Self.status("bl:0") == 404)
    }

    @Test func metadataOptions() throws {
        #expect(try Self.spec("kcr:0") == "format=auto,q=80")
        #expect(try Self.spec("scp:0") == "format=auto,q=80,icc=keep|keep_copyright")
        #expect(try Self.spec("sm:1") == Self.defaults)
        #expect(Self.status("sm:0") == 400)
        #expect(Self.status("eth:1") == 400)
    }

    @Test func qualityAndFormat() throws {
        #expect(try Self.spec("q:60/f:webp") == "format=webp,q=60|keep_copyright")
        #expect(try Self.spec("f:webp") == "format=webp,q=79|keep_copyright", "imgproxy's WebP quality")
        #expect(try Self.spec("ext:avif") == "format=avif,q=63|keep_copyright")
        #expect(try Self.spec("format:jpg") == "format=jpeg,q=80|keep_copyright")
        #expect(try Self.spec("fq:jpeg:70:webp:60/f:jpg") == "format=jpeg,q=70|keep_copyright")
        #expect(try Self.spec("q:0/f:png") == "format=png,q=80|keep_copyright", "0 is the default")
        #expect(try Self.spec("mb:102400") == "format=auto,q=80,maxbytes=102400|keep_copyright")
        #expect(Self.status("q:101") == 404)
        #expect(Self.status("fq:jpeg") == 404)
        #expect(Self.status("f:nope") == 404)
        var configuration = ImgproxyConfiguration()
        configuration.quality = 70
        configuration.formatQualities[.jpeg] = 90
        #expect(try Self.spec("f:jpg", configuration: configuration) == "format=jpeg,q=90|keep_copyright")
        #expect(try Self.spec("f:png", configuration: configuration) == "format=png,q=70|keep_copyright")
    }

    @Test func extensionAfterTheSource() throws {
        let dialect = try ImgproxyDialect(ImgproxyConfiguration(), hasWatermark: false)
        #expect(
            try dialect.request(path: "/insecure/w:10/plain/http://example.com/a.jpg@png", accept: nil).spec
                == "resize=10,noenlarge|format=png,q=80|keep_copyright")
        // The docs' base64 example, split by '/', with its extension.
        let read = try dialect.request(
            path: "/insecure/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png", accept: nil)
        #expect(read.source.absoluteString == "http://example.com/images/curiosity.jpg")
        #expect(read.spec == "resize=300x400,fill,noenlarge,smart|format=png,q=80|keep_copyright")
        // The extension wins over an earlier format option, as imgproxy applies it last.
        #expect(
            try dialect.request(path: "/insecure/f:webp/plain/http://example.com/a.jpg@jpg", accept: nil).spec
                == "format=jpeg,q=80|keep_copyright")
    }

    @Test func acceptDecidesOnlyWhenTurnedOn() throws {
        #expect(try Self.spec("", accept: "image/avif,image/webp") == Self.defaults)
        var configuration = ImgproxyConfiguration()
        configuration.autoWebP = true
        let dialect = try ImgproxyDialect(configuration, hasWatermark: false)
        let webp = try dialect.request(path: "/insecure/plain/http://example.com/a.jpg", accept: "image/webp,*/*")
        #expect(webp.spec == "format=webp,q=79|keep_copyright")
        #expect(webp.variesWithAccept)
        #expect(
            try dialect.request(path: "/insecure/plain/http://example.com/a.jpg@png", accept: "image/webp").spec
                == "format=png,q=80|keep_copyright", "detection does not override the URL's format")
        configuration.enforceAVIF = true
        #expect(try Self.spec("f:png", configuration: configuration, accept: "image/avif") == "format=avif,q=63|keep_copyright")
    }

    @Test func watermark() throws {
        #expect(try Self.spec("wm:0.5:soea", hasWatermark: true) == "watermark=imgproxy,bottomright,0.5|\(Self.defaults)")
        #expect(try Self.spec("wm:1", hasWatermark: true) == "watermark=imgproxy,center,1|\(Self.defaults)")
        #expect(try Self.spec("wm:0", hasWatermark: true) == Self.defaults, "opacity 0 draws nothing")
        #expect(Self.status("wm:0.5:soea") == 400, "no watermark configured")
        // watermark:%opacity:%position:%x_offset:%y_offset:%scale, each form of the docs.
        #expect(try Self.spec("wm:0.5:soea:10:20", hasWatermark: true) == "watermark=imgproxy,bottomright,0.5,x=10,y=20|\(Self.defaults)")
        #expect(try Self.spec("watermark:0.5:ce::-5", hasWatermark: true) == "watermark=imgproxy,center,0.5,y=-5|\(Self.defaults)")
        #expect(try Self.spec("wm:1:nowe:0:0:0.2", hasWatermark: true) == "watermark=imgproxy,topleft,1,scale=0.2|\(Self.defaults)")
        #expect(try Self.spec("wm:1:we:4:0:0", hasWatermark: true) == "watermark=imgproxy,left,1,x=4|\(Self.defaults)", "scale 0: its own size")
        // re replicates it over the whole result, the offsets the space between copies
        // (pixels, or under 1 a fraction of the side).
        #expect(try Self.spec("wm:0.5:re", hasWatermark: true) == "watermark=imgproxy,center,0.5,tile=grid|\(Self.defaults)")
        #expect(try Self.spec("wm:0.5:re:20:10:0.25", hasWatermark: true) == "watermark=imgproxy,center,0.5,x=20,y=10,scale=0.25,tile=grid|\(Self.defaults)")
        #expect(try Self.spec("wm:0.5:re:0.1:0.05", hasWatermark: true) == "watermark=imgproxy,center,0.5,x=10p,y=5p,tile=grid|\(Self.defaults)")
        #expect(throws: ImageServerError.self) { try Self.spec("wm:0.5:soea:10:20:0.2:5", hasWatermark: true) }
        #expect(Self.status("wm:0.5:soea:1:1:-1") == 404, "a negative scale")
        #expect(Self.status("wm:0.5:soea:x") == 404)
        #expect(Self.status("wm:2") == 404)
    }

    @Test func handlingOptions() throws {
        #expect(Self.status("skp:svg") == 400)
        #expect(Self.status("skp:nope") == 404)
        #expect(try Self.spec("raw:1/w:100/fn:a.jpg") == "raw|filename=a.jpg")
        #expect(try Self.spec("cb:v2") == "\(Self.defaults)|cachebuster=v2")
        let digest = SHA256.hash(Array("a+b".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(try Self.spec("cb:a+b") == "\(Self.defaults)|cachebuster=\(digest)")
        let future = Int(Date().timeIntervalSince1970) + 3600
        #expect(try Self.spec("exp:\(future)") == "\(Self.defaults)|expires=\(future)")
        #expect(try Self.spec("exp:0") == Self.defaults)
        #expect(Self.status("exp:1000") == 404, "an expired URL is imgproxy's 404")
        #expect(try Self.spec("fn:my_image") == "\(Self.defaults)|filename=my_image")
        #expect(try Self.spec("fn:bXlfaW1hZ2U:1") == "\(Self.defaults)|filename=my_image", "base64url-encoded name")
        #expect(try Self.spec("att:1") == "\(Self.defaults)|attachment")
        #expect(try Self.spec("return_attachment:0") == Self.defaults)
    }

    @Test func presets() throws {
        var configuration = ImgproxyConfiguration()
        configuration.presets = ["thumb": "rs:fill:100:100/q:70", "loop": "pr:loop/w:10", "default": "f:png"]
        #expect(try Self.spec("pr:thumb", configuration: configuration) == "resize=100x100,fill,noenlarge|format=png,q=70|keep_copyright")
        #expect(try Self.spec("pr:thumb/q:50", configuration: configuration) == "resize=100x100,fill,noenlarge|format=png,q=50|keep_copyright")
        #expect(try Self.spec("preset:loop", configuration: configuration) == "resize=10,noenlarge|format=png,q=80|keep_copyright")
        #expect(Self.status("pr:nope", configuration: configuration) == 404)
        configuration.onlyPresets = true
        let dialect = try ImgproxyDialect(configuration, hasWatermark: false)
        #expect(
            try dialect.request(path: "/insecure/thumb/plain/http://example.com/a.jpg", accept: nil).spec
                == "resize=100x100,fill,noenlarge|format=png,q=70|keep_copyright")
        #expect(throws: ImageServerError.self) { try dialect.request(path: "/insecure/w:10/plain/http://example.com/a.jpg", accept: nil) }
        var bad = ImgproxyConfiguration()
        bad.presets = ["bad": "w10"]
        #expect(throws: ImageServerConfigurationError.badImgproxyPreset("bad")) { _ = try ImgproxyDialect(bad, hasWatermark: false) }
    }

    @Test func unknownProAndSecurityOptions() {
        #expect(Self.status("nope:1") == 404)
        do {
            _ = try Self.spec("ra:lanczos3")
            Issue.record("a Pro option was read")
        } catch let error as ImageServerError {
            #expect(error.status.code == 404)
            #expect(error.message.contains("ra is an imgproxy Pro option"))
        } catch {
            Issue.record("\(error)")
        }
        #expect(Self.status("msr:10") == 404)
    }

    @Test func pathForms() throws {
        let path = "/sig/w:10/h:5/plain/http%3A%2F%2Fexample.com%2Fa%20b.jpg@webp"
        let signed = ImgproxyPath.signature(of: path)
        #expect(signed?.signature == "sig")
        #expect(signed?.signedPath == "/w:10/h:5/plain/http%3A%2F%2Fexample.com%2Fa%20b.jpg@webp")
        #expect(ImgproxyPath.signature(of: "/sig") == nil)
        let plain = try ImgproxyPath(path: path, onlyPresets: false)
        #expect(plain.options == [.init(name: "w", arguments: ["10"]), .init(name: "h", arguments: ["5"])])
        #expect(plain.source == "http://example.com/a b.jpg")
        #expect(plain.fileExtension == "webp")
        let padded = try ImgproxyPath(path: "/sig/aHR0cDovL2V4YW1wbGUuY29tL2ltYWdlcy9jdXJpb3NpdHkuanBn==", onlyPresets: false)
        #expect(padded.source == "http://example.com/images/curiosity.jpg")
        #expect(padded.options.isEmpty)
        #expect(padded.fileExtension == nil)
        for bad in ["/sig", "/sig/w:10", "/sig/w:10/plain/a@b@c", "/sig/w:10/!!!notbase64", "/sig/a.b.c", "/sig/plain/@png", "/sig/w:10/plain/%zz"] {
            #expect(throws: ImageServerError.self, "\(bad)") { try ImgproxyPath(path: bad, onlyPresets: false) }
        }
        let many = "/sig/" + String(repeating: "q:80/", count: 1000) + "plain/http://example.com/a.jpg"
        #expect(throws: ImageServerError.self) { try ImgproxyPath(path: many, onlyPresets: false) }
    }

    @Test func dialectOfAPath() {
        #expect(!ImageRoute.isImgproxy("/_/resize=400|format=webp/plain/http%3A%2F%2Fexample.com%2Fa.jpg"))
        #expect(!ImageRoute.isImgproxy("/_/resize%3D400/plain/x"))
        #expect(!ImageRoute.isImgproxy("/_/raw/plain/x"))
        #expect(!ImageRoute.isImgproxy("/_/crop=200x200,fp:0.3:0.7/plain/x"))
        #expect(ImageRoute.isImgproxy("/insecure/rs:fit:300:300/plain/http://example.com/a.jpg"))
        #expect(ImageRoute.isImgproxy("/insecure/plain/http://example.com/a.jpg"))
        #expect(ImageRoute.isImgproxy("/insecure/aHR0cDovL2V4YW1wbGUuY29tL2EuanBn"))
    }
}
