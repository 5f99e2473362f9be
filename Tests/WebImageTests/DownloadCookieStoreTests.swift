import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("DownloadCookieStore")
struct DownloadCookieStoreTests {
    @Test func matchesHostPathAndSecurity() {
        let store = DownloadCookieStore()
        store.store(
            setCookieHeaders: [
                "a=1; Path=/images",
                "b=2; Domain=example.com; Path=/",
                "c=3; Secure",
            ], from: URL(string: "http://cdn.example.com/images/x.png")!)
        #expect(store.count == 3)
        #expect(store.cookieHeader(for: URL(string: "http://cdn.example.com/images/y.png")!) == "a=1; b=2")
        #expect(store.cookieHeader(for: URL(string: "https://cdn.example.com/images/y.png")!) == "a=1; b=2; c=3")
        #expect(store.cookieHeader(for: URL(string: "http://www.example.com/other")!) == "b=2")
        #expect(store.cookieHeader(for: URL(string: "http://cdn.example.com/imagesX")!) == "b=2")
        #expect(store.cookieHeader(for: URL(string: "http://other.org/")!) == nil)
    }

    @Test func replacesAndExpiresCookies() {
        let store = DownloadCookieStore()
        let url = URL(string: "http://example.com/")!
        store.store(setCookieHeaders: ["id=1"], from: url)
        store.store(setCookieHeaders: ["id=2"], from: url)
        #expect(store.cookieHeader(for: url) == "id=2")
        store.store(setCookieHeaders: ["id=; Max-Age=0"], from: url)
        #expect(store.count == 0)
        store.store(setCookieHeaders: ["x=1; Domain=evil.com", "=nameless"], from: url)
        #expect(store.count == 0)
    }
}
