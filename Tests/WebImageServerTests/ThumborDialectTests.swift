import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// thumbor's URLs read into the server's own spec: the signature as libthumbor writes it,
/// each part of the path and each filter with the native spec it becomes, thumbor's
/// defaults, and the answers to what is not served.
@Suite("thumbor dialect")
struct ThumborDialectTests {
    static let key = Array("my-secret-key".utf8)
    /// What every spec ends with under thumbor's defaults: the source's format at quality 80.
    static let defaults = "format=auto,q=80"

    /// The native spec the unsafe path `parts` (before the image) becomes.
    static func spec(_ parts: String, configuration: ThumborConfiguration = ThumborConfiguration(), accept: String? = nil) throws -> String {
        let path = parts.isEmpty ? "/unsafe/example.com/a.jpg" : "/unsafe/\(parts)/example.com/a.jpg"
        return try ThumborDialect(configuration: configuration).request(path: path, accept: accept).spec
    }

    /// The status reading `parts` answers; `nil` when it reads.
    static func status(_ parts: String, configuration: ThumborConfiguration = ThumborConfiguration()) -> Int? {
        do {
            _ = try spec(parts, configuration: configuration)
            return nil
        } catch let error as ImageServerError {
            return Int(error.status.code)
        } catch {
            return -1
        }
    }

    @Test func sha1AndHMACMatchTheStandardsVectors() {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.hash([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(
            hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        // RFC 2202, test cases 1 and 6 (a key longer than a block).
        #expect(
            hex(HMACSHA1.authenticationCode(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20)))
                == "b617318655057264e28bc0b6fb378c8ef146be00")
        #expect(
            hex(HMACSHA1.authenticationCode(for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8), key: [UInt8](repeating: 0xaa, count: 80)))
                == "aa4ae5e15272d00e95705637ce8a3b55ed402112")
    }

    @Test func signaturesAreLibthumbors() throws {
        // libthumbor 2.0.2's CryptoURL(key="my-secret-key").generate(...), recorded.
        #expect(ThumborSignature.signature(key: Self.key, path: "300x200/example.com/a.jpg") == "3KaOXMgQTYxaFijrToipE1EnHwo=")
        #expect(
            ThumborSignature.signature(key: Self.key, path: "fit-in/300x200/smart/filters:quality(50):grayscale()/example.com/a.jpg")
                == "ygKEnnZCldhZQB5Zxh_loShRijQ=")
        var configuration = ThumborConfiguration()
        configuration.securityKey = Self.key
        let dialect = ThumborDialect(configuration: configuration)
        let signed = try dialect.request(path: "/GyPsz7Abe_FtQMcZm7YcV6L_Ep4=/10x20:110x220/-300x0/left/top/http://example.com/a.jpg", accept: nil)
        #expect(signed.spec == "crop=10,20,100x200|resize=300,halfeven|flip=h|\(Self.defaults)")
        #expect(signed.source.absoluteString == "http://example.com/a.jpg")
        #expect(try dialect.request(path: "/sRiwDafGpECvCXB5dYsxtJGH-Is=/trim/example.com/a.jpg", accept: nil).spec == "trim=0|\(Self.defaults)")
        // A wrong signature, one for another path, and none: thumbor's 400.
        for path in [
            "/3KaOXMgQTYxaFijrToipE1EnHwX=/300x200/example.com/a.jpg", "/3KaOXMgQTYxaFijrToipE1EnHwo=/300x201/example.com/a.jpg",
            "/3KaOXMgQTYxaFijrToipE1EnHwo/300x200/example.com/a.jpg",
        ] {
            #expect(throws: ImageServerError.self) { try dialect.request(path: path, accept: nil) }
        }
        // unsafe beside signed URLs, as ALLOW_UNSAFE_URL allows; refused when it is off.
        #expect(try dialect.request(path: "/unsafe/300x200/example.com/a.jpg", accept: nil).spec == "resize=300x200,fill|\(Self.defaults)")
        configuration.allowsUnsafeURLs = false
        #expect(Self.status("300x200", configuration: configuration) == 400)
        // Without a key, a signed URL is refused.
        #expect(throws: ImageServerError.self) {
            try ThumborDialect(configuration: ThumborConfiguration()).request(path: "/3KaOXMgQTYxaFijrToipE1EnHwo=/300x200/example.com/a.jpg", accept: nil)
        }
    }

    @Test func sizesCropsAndFlips() throws {
        #expect(try Self.spec("") == Self.defaults)
        #expect(try Self.spec("300x200") == "resize=300x200,fill|\(Self.defaults)")
        // 0 and an empty side follow the other side, a half pixel rounded to even as
        // thumbor rounds it; thumbor enlarges outside fit-in.
        #expect(try Self.spec("300x0") == "resize=300,halfeven|\(Self.defaults)")
        #expect(try Self.spec("x200") == "resize=x200,halfeven|\(Self.defaults)")
        #expect(try Self.spec("x200/filters:no_upscale()") == "resize=x200,halfeven,noenlarge|\(Self.defaults)")
        #expect(try Self.spec("0x0") == Self.defaults)
        // Negative sizes flip, after the resize.
        #expect(try Self.spec("-300x-200") == "resize=300x200,fill|flip=hv|\(Self.defaults)")
        #expect(try Self.spec("-0x0") == "flip=h|\(Self.defaults)")
        #expect(try Self.spec("x-0") == "flip=v|\(Self.defaults)")
        // orig: the source's side.
        #expect(try Self.spec("origxorig") == Self.defaults)
        #expect(try Self.spec("fit-in/origx100") == "resize=x100,inside,noenlarge|\(Self.defaults)")
        #expect(Self.status("origx100") == 400)
        // The manual crop, in source pixels; an empty one is none.
        #expect(try Self.spec("10x20:110x70/50x25") == "crop=10,20,100x50|resize=50x25,fill|\(Self.defaults)")
        #expect(try Self.spec("10x20:10x70") == Self.defaults)
        #expect(Self.status("100000x10") == 400)
    }

    @Test func fitInAlignmentAndSmart() throws {
        #expect(try Self.spec("fit-in/300x200") == "resize=300x200,inside,noenlarge|\(Self.defaults)")
        #expect(try Self.spec("fit-in/300x0") == "resize=300,inside,noenlarge|\(Self.defaults)")
        #expect(try Self.spec("fit-in/300x200/filters:upscale()") == "resize=300x200,inside|\(Self.defaults)")
        // full-fit-in covers the box, enlarging too; adaptive- turns the box to the picture.
        #expect(try Self.spec("full-fit-in/300x200") == "resize=300x200,outside|\(Self.defaults)")
        #expect(try Self.spec("full-fit-in/300x0") == "resize=300|\(Self.defaults)")
        #expect(try Self.spec("full-fit-in/0x200") == "resize=x200|\(Self.defaults)")
        #expect(Self.status("full-fit-in/origx200") == 400)
        #expect(try Self.spec("adaptive-fit-in/300x200") == "resize=300x200,inside,adaptive,noenlarge|\(Self.defaults)")
        #expect(try Self.spec("adaptive-full-fit-in/300x200") == "resize=300x200,outside,adaptive|\(Self.defaults)")
        #expect(try Self.spec("full-fit-in/300x200/filters:fill(red)") == "resize=300x200,outside|\(Self.defaults)")
        #expect(Self.status("adaptive-fit-in/300x200/filters:fill(red)") == 400)
        #expect(try Self.spec("300x200/left/top") == "resize=300x200,fill,gravity=topleft|\(Self.defaults)")
        #expect(try Self.spec("300x200/right") == "resize=300x200,fill,gravity=right|\(Self.defaults)")
        #expect(try Self.spec("300x200/bottom") == "resize=300x200,fill,gravity=bottom|\(Self.defaults)")
        // smart without detectors (thumbor's default DETECTORS = []) keeps the alignment.
        #expect(try Self.spec("300x200/smart") == "resize=300x200,fill|\(Self.defaults)")
        #expect(try Self.spec("trim:5/300x200") == "trim=5|resize=300x200,fill|\(Self.defaults)")
        #expect(Self.status("trim:bottom-right/300x200") == 400)
        #expect(Self.status("debug/300x200") == 400)
        #expect(Self.status("meta/300x200") == 400)
        var limited = ThumborConfiguration()
        limited.maxWidth = 100
        limited.maxHeight = 50
        #expect(try Self.spec("300x200", configuration: limited) == "resize=100x50,fill|\(Self.defaults)")
    }

    @Test func filtersBecomeNativeOperations() throws {
        #expect(try Self.spec("filters:quality(50)") == "format=auto,q=50")
        #expect(try Self.spec("filters:format(webp)") == "format=webp,q=80")
        #expect(try Self.spec("filters:format(jpeg):quality(95)") == "format=jpeg,q=95")
        // A format thumbor does not allow leaves the source's.
        #expect(try Self.spec("filters:format(bmp)") == Self.defaults)
        #expect(try Self.spec("filters:grayscale()") == "grayscale|\(Self.defaults)")
        #expect(try Self.spec("filters:blur(4)") == "blur=4|\(Self.defaults)")
        #expect(try Self.spec("filters:blur(4,2)") == "blur=2|\(Self.defaults)")
        #expect(try Self.spec("filters:brightness(40)") == "brightness=0.4|\(Self.defaults)")
        #expect(try Self.spec("filters:contrast(40)") == "contrast=1.96|\(Self.defaults)")
        #expect(try Self.spec("filters:contrast(-100)") == "contrast=0|\(Self.defaults)")
        #expect(Self.status("filters:contrast(150)") == 400)
        #expect(try Self.spec("filters:saturation(0.5)") == "saturation=0.5|\(Self.defaults)")
        #expect(try Self.spec("filters:sharpen(2,1.5,true)") == "sharpen=1.5,2|\(Self.defaults)")
        // thumbor turns counter-clockwise; a non-right angle is skipped.
        #expect(try Self.spec("filters:rotate(90)") == "rotate=270|\(Self.defaults)")
        #expect(try Self.spec("filters:rotate(-90)") == "rotate=90|\(Self.defaults)")
        #expect(try Self.spec("filters:rotate(45)") == Self.defaults)
        #expect(try Self.spec("filters:round_corner(20,255,255,255)") == "round=20|format=auto,q=80,bg=ffffff")
        #expect(try Self.spec("filters:round_corner(20,0,0,0,true)") == "round=20|\(Self.defaults)")
        #expect(Self.status("filters:round_corner(20|10,0,0,0)") == 400)
        #expect(try Self.spec("filters:max_bytes(10000)") == "format=auto,q=80,maxbytes=10000")
        #expect(try Self.spec("filters:background_color(ff0000)") == "format=auto,q=80,bg=ff0000")
        #expect(try Self.spec("fit-in/300x200/filters:fill(blue)") == "resize=300x200,inside,noenlarge|extend=300x200,center,bg=blue|\(Self.defaults)")
        #expect(try Self.spec("fit-in/300x200/filters:fill(auto)") == "resize=300x200,inside,noenlarge|extend=300x200,center,bg=auto|\(Self.defaults)")
        // blur: the picture blurred and stretched to the box, under it.
        #expect(try Self.spec("fit-in/300x200/filters:fill(blur)") == "resize=300x200,inside,noenlarge|extend=300x200,center,bg=blur|\(Self.defaults)")
        #expect(try Self.spec("300x200/filters:no_upscale()") == "resize=300x200,fill,noenlarge|\(Self.defaults)")
        #expect(try Self.spec("300x200/filters:stretch()") == "resize=300x200,stretch|\(Self.defaults)")
        #expect(try Self.spec("300x200/filters:proportion(0.5)") == "resize=300x200,fill|resize=150x100,stretch|\(Self.defaults)")
        #expect(try Self.spec("filters:strip_exif():strip_icc()") == Self.defaults)
        // thumbor skips unknown names and arguments that do not match.
        #expect(try Self.spec("filters:nope(1):blur(x):quality(abc)") == Self.defaults)
        // rgb adds 255 × delta / 100 whole levels to each channel.
        #expect(try Self.spec("filters:rgb(20,0,-20)") == "rgb=0.2,0,-0.2|\(Self.defaults)")
        #expect(try Self.spec("filters:rgb(10,0,0)") == "rgb=\(25.0 / 255),0,0|\(Self.defaults)")
        #expect(try Self.spec("filters:rgb(500,-500,0)") == "rgb=1,-1,0|\(Self.defaults)")
        #expect(try Self.spec("filters:rgb(0,0,0)") == Self.defaults)
        #expect(try Self.spec("filters:rgb(1,2)") == Self.defaults)
        #expect(try Self.spec("filters:equalize()") == "equalize|\(Self.defaults)")
        #expect(try Self.spec("filters:noise(10)") == "noise=10|\(Self.defaults)")
        #expect(try Self.spec("filters:noise(10,53)") == "noise=10,seed=53|\(Self.defaults)")
        #expect(try Self.spec("filters:noise(0)") == Self.defaults)
        #expect(Self.status("filters:noise(101)") == 400)
        #expect(Self.status("filters:noise(10,99999999999)") == 400)
        #expect(try Self.spec("filters:convolution(1;2;1;2;4;2;1;2;1,3,true)") == "convolution=1;2;1;2;4;2;1;2;1,3|\(Self.defaults)")
        #expect(try Self.spec("filters:convolution(-1;0;1,3,false)") == "convolution=-1;0;1,3,unnormalized|\(Self.defaults)")
        #expect(try Self.spec("filters:convolution(1;1;1;1;1;1;1;1;1,3)") == "convolution=1;1;1;1;1;1;1;1;1,3|\(Self.defaults)")
        // Hostile kernels: even sides, over 9 × 9, huge weights.
        #expect(Self.status("filters:convolution(1;2,2,true)") == 400)
        #expect(Self.status("filters:convolution(\(Array(repeating: "1", count: 121).joined(separator: ";")),11,true)") == 400)
        #expect(try Self.spec("filters:convolution(1;1e9;1,3,true)") == Self.defaults)
        #expect(Self.status("filters:convolution(1;99999;1,3,true)") == 400)
        // focal: the region's centre, weighted by area, stands in for the alignment.
        #expect(try Self.spec("100x100/filters:focal(200x50:260x110)") == "resize=100x100,fill,gravity=point:230:80|\(Self.defaults)")
        #expect(
            try Self.spec("100x100/filters:focal(0x0:10x10):focal(100x100:130x130)")
                == "resize=100x100,fill,gravity=point:\((5 * 100 + 115 * 900) / 1000):\((5 * 100 + 115 * 900) / 1000)|\(Self.defaults)")
        #expect(try Self.spec("10x20:310x220/100x100/filters:focal(200x50:260x110)") == "crop=10,20,300x200|resize=100x100,fill,gravity=point:220:60|\(Self.defaults)")
        #expect(try Self.spec("100x100/filters:focal(5x5:5x9)") == "resize=100x100,fill|\(Self.defaults)")
        #expect(try Self.spec("fit-in/100x100/filters:focal(200x50:260x110)") == "resize=100x100,inside,noenlarge|\(Self.defaults)")
        for unserved in ["colorize(10,20,30,ff0000)"] {
            #expect(Self.status("filters:\(unserved)") == 400, "\(unserved)")
        }
        // autojpg is not among thumbor's built-in filters: skipped unless FILTERS lists it.
        #expect(try Self.spec("filters:autojpg()") == Self.defaults)
        var listed = ThumborConfiguration()
        listed.filters = ["autojpg", "quality"]
        #expect(Self.status("filters:autojpg()", configuration: listed) == 400)
        #expect(try Self.spec("filters:autojpg(false)", configuration: listed) == Self.defaults)
        // A filter FILTERS does not list is skipped.
        #expect(try Self.spec("filters:grayscale():quality(60)", configuration: listed) == "format=auto,q=60")
        // Filters run up to thumbor's `)/`, a slash inside their arguments included: this
        // watermark's URL is its argument, not the image.
        #expect(try Self.spec("filters:quality(70):format(png)") == "format=png,q=70")
        #expect(try Self.spec("filters:watermark(http://example.com/w.png,0,0,50)").hasPrefix("watermark=url1,topleft,"))
    }

    /// The request a thumbor path `parts` (before the image) reads into.
    static func request(_ parts: String) throws -> ThumborDialect.Request {
        try ThumborDialect(configuration: ThumborConfiguration()).request(path: "/unsafe/\(parts)/example.com/a.jpg", accept: nil)
    }

    @Test func watermarksBecomeFetchedOverlays() throws {
        // Pixels from the left and top; from the right and bottom when negative, -0 at the edge.
        let corner = try Self.request("filters:watermark(example.com/w.png,10,20,0)")
        #expect(corner.spec == "watermark=url1,topleft,1,x=10,y=20|\(Self.defaults)")
        #expect(corner.watermarks == [URL(string: "http://example.com/w.png")!], "http:// put in front, as for the image")
        #expect(try Self.spec("filters:watermark(w.png,-10,-0,0)") == "watermark=url1,bottomright,1,x=10,y=0|\(Self.defaults)")
        // center on either axis; percentages of the image's side, signed the same way.
        #expect(try Self.spec("filters:watermark(w.png,center,center,0)") == "watermark=url1,center,1|\(Self.defaults)")
        #expect(try Self.spec("filters:watermark(w.png,center,-5,0)") == "watermark=url1,bottom,1,y=5|\(Self.defaults)")
        #expect(try Self.spec("filters:watermark(w.png,20p,-10p,0)") == "watermark=url1,bottomleft,1,x=20p,y=10p|\(Self.defaults)")
        #expect(try Self.spec("filters:watermark(w.png,500p,0,0)") == "watermark=url1,topleft,1,x=100p,y=0|\(Self.defaults)")
        // ALPHA is transparency: thumbor lowers each alpha by ⌊255 · ALPHA / 100⌋.
        #expect(try Self.spec("filters:watermark(w.png,0,0,50)") == "watermark=url1,topleft,\(ImgproxyOptions.number(128.0 / 255)),x=0,y=0|\(Self.defaults)")
        #expect(try Self.spec("filters:watermark(w.png,0,0,100)") == "watermark=url1,topleft,0,x=0,y=0|\(Self.defaults)")
        #expect(try Self.spec("filters:watermark(w.png,0,0,400)") == "watermark=url1,topleft,0,x=0,y=0|\(Self.defaults)")
        // repeat spreads copies along its axis.
        #expect(try Self.spec("filters:watermark(w.png,repeat,repeat,0)") == "watermark=url1,center,1,tile=spread|\(Self.defaults)")
        #expect(try Self.spec("filters:watermark(w.png,repeat,-0,0)") == "watermark=url1,bottom,1,y=0,tile=spreadx|\(Self.defaults)")
        #expect(try Self.spec("filters:watermark(w.png,4,repeat,0)") == "watermark=url1,left,1,x=4,tile=spready|\(Self.defaults)")
        // Ratios in percent of the image's sides; none or 0 leaves a side free.
        #expect(try Self.spec("filters:watermark(w.png,0,0,0,30,none)") == "watermark=url1,topleft,1,x=0,y=0,scale=0.3x|\(Self.defaults)")
        #expect(try Self.spec("filters:watermark(w.png,0,0,0,0,50)") == "watermark=url1,topleft,1,x=0,y=0,scale=x0.5|\(Self.defaults)")
        #expect(try Self.spec("filters:watermark(w.png,0,0,0,20,40)") == "watermark=url1,topleft,1,x=0,y=0,scale=0.2x0.4|\(Self.defaults)")
        #expect(try Self.spec("filters:watermark(w.png,0,0,0,none,none)") == "watermark=url1,topleft,1,x=0,y=0|\(Self.defaults)")
        // Several watermarks, each its own name, in the filters' order.
        let two = try Self.request("300x200/filters:watermark(a.com/1.png,0,0,0):blur(2):watermark('b.com/2.png',-0,-0,0)")
        #expect(two.spec == "resize=300x200,fill|watermark=url1,topleft,1,x=0,y=0|blur=2|watermark=url2,bottomright,1,x=0,y=0|\(Self.defaults)")
        #expect(two.watermarks == [URL(string: "http://a.com/1.png")!, URL(string: "http://b.com/2.png")!])
        // Arguments thumbor's pattern does not match: skipped, as thumbor skips them.
        for skipped in ["watermark(w.png,0,0)", "watermark(w.png,left,0,0)", "watermark(w.png,0,0,-5)", "watermark(w.png,0,0,0,1,2,3)"] {
            #expect(try Self.request("filters:\(skipped)").spec == Self.defaults, "\(skipped)")
        }
        // A negative or huge ratio, and an image that is not a URL: 400.
        #expect(Self.status("filters:watermark(w.png,0,0,0,-20,none)") == 400)
        #expect(Self.status("filters:watermark(w.png,0,0,0,10001,none)") == 400)
        #expect(Self.status("filters:watermark(%zz,0,0,0)") == 400)
    }

    @Test func formatByAcceptOnlyWithAutoWebP() throws {
        #expect(try Self.spec("", accept: "image/webp") == Self.defaults)
        var configuration = ThumborConfiguration()
        configuration.autoWebP = true
        configuration.webPQuality = 70
        let dialect = ThumborDialect(configuration: configuration)
        let webp = try dialect.request(path: "/unsafe/example.com/a.jpg", accept: "image/avif,image/webp,*/*")
        #expect(webp.spec == "format=webp,q=70")
        #expect(webp.variesWithAccept)
        #expect(try dialect.request(path: "/unsafe/example.com/a.jpg", accept: "*/*").spec == Self.defaults)
        // The format filter wins, and the answer does not vary.
        let named = try dialect.request(path: "/unsafe/filters:format(png)/example.com/a.jpg", accept: "image/webp")
        #expect(named.spec == "format=png,q=80")
        #expect(!named.variesWithAccept)
    }

    @Test func pathsAreToldApartFromTheOtherDialects() {
        #expect(ThumborPath.claims("/unsafe/300x200/example.com/a.jpg"))
        #expect(ThumborPath.claims("/unsafe/fit-in/300x200/example.com/a.jpg"))
        #expect(ThumborPath.claims("/unsafe/filters:quality(50)/example.com/a.jpg"))
        #expect(ThumborPath.claims("/3KaOXMgQTYxaFijrToipE1EnHwo=/example.com/a.jpg"))
        #expect(ThumborPath.claims("/unsafe/trim/example.com/a.jpg"))
        // imgproxy's and the native forms are not thumbor's.
        #expect(!ThumborPath.claims("/unsafe/rs:fill:300:200/plain/http://example.com/a.jpg"))
        #expect(!ThumborPath.claims("/_/resize=300x200/plain/http%3A%2F%2Fexample.com%2Fa.jpg"))
        #expect(!ThumborPath.claims("/_/trim/plain/http%3A%2F%2Fexample.com%2Fa.jpg"))
        #expect(!ThumborPath.claims("/insecure/trim:10/rs:fit:10:10/plain/http://example.com/a.jpg"))
        #expect(!ThumborPath.claims("/insecure/aHR0cDovL2V4YW1wbGUuY29tL2EuanBn.png"))
    }

    @Test func hostilePathsAreRefusedNotRead() {
        #expect(Self.status(String(repeating: "filters:quality(1)", count: 1) + ":" + Array(repeating: "blur(1)", count: 100).joined(separator: ":")) == 400)
        #expect(throws: ImageServerError.self) { try ThumborDialect(configuration: ThumborConfiguration()).request(path: "/unsafe/", accept: nil) }
        #expect(throws: ImageServerError.self) { try ThumborDialect(configuration: ThumborConfiguration()).request(path: "/unsafe/%zz", accept: nil) }
        #expect(Self.status("99999999999999999999999x1:2x3") == nil, "a crop's corners saturate; the crop is then clamped to the source")
    }
}
