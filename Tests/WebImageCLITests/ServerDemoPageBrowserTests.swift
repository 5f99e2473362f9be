import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// The `--demo` page as a person sees it: Debian's Chromium, headless, loads the page from a
/// running `webimage serve --demo`, and every image on it must have loaded — the centre and
/// smart fills side by side among them. The screenshot it takes is kept when the test fails.
@Suite("webimage serve --demo in a browser", .timeLimit(.minutes(10)))
struct ServerDemoPageBrowserTests {
    /// Debian's Chromium, where `scripts/install-system-packages.sh` installs it.
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: chromium != nil, "needs Debian's chromium (scripts/install-system-packages.sh installs it)"))
    func everyImageOnTheDemoPageLoadsInABrowser() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-demo-browser")
        let samples = 4
        let server = try BackgroundProcess(
            try BuiltExecutable.url(named: "webimage"),
            [
                "serve", "--request-timeout", "600", "--demo", "--demo-samples", String(samples), "--port", "0",
                "--key", String(repeating: "00112233", count: 8), "--cache-dir", scratch.url.path,
            ])
        let line = try await server.waitForLine(containing: "listening on")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        let page = "http://127.0.0.1:\(port)/"
        // The window holds the whole page, so no image is left unloaded by lazy loading;
        // virtual time only runs out once no image is still on its way.
        let browser = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1600,1600",
            "--virtual-time-budget=120000", "--user-data-dir=\(scratch.url.appendingPathComponent("profile").path)",
        ]
        let program = URL(fileURLWithPath: try #require(Self.chromium))
        let dump = try await CommandLineTool.run(browser + ["--dump-dom", page], scratch: scratch.url, program: program)
        #expect(dump.status == 0, "\(dump.standardError.suffix(2000))")
        let status = try #require(Self.attributes(ofElementWithID: "status", in: dump.standardOutput), "no status line in the page")
        let total = samples * 7  // ServerDemoPage.variants
        #expect(status["data-total"] == String(total))
        #expect(status["data-loaded"] == String(total), "\(status)")
        #expect(status["data-broken"] == "0", "\(status)")

        let screenshot = scratch.url.appendingPathComponent("demo.png")
        let shot = try await CommandLineTool.run(
            browser + ["--screenshot=\(screenshot.path)", page], scratch: scratch.url, program: program)
        #expect(shot.status == 0, "\(shot.standardError.suffix(2000))")
        let picture = try ImageCodersManager.shared.decode(try Data(contentsOf: screenshot))
        #expect(picture.pixelSize == PixelSize(width: 1600, height: 1600))
        #expect(await server.stop() == 0)
    }

    /// The attributes of the element with `id` in serialised HTML.
    static func attributes(ofElementWithID id: String, in html: String) -> [String: String]? {
        guard let start = html.range(of: "id=\"\(id)\"") else { return nil }
        let tagStart = html[..<start.lowerBound].lastIndex(of: "<") ?? start.lowerBound
        guard let tagEnd = html[start.upperBound...].firstIndex(of: ">") else { return nil }
        var attributes: [String: String] = [:]
        let tag = html[tagStart..<tagEnd]
        for part in tag.components(separatedBy: "\" ") {
            let pair = part.split(separator: "=", maxSplits: 1).map { String($0) }
            guard pair.count == 2 else { continue }
            let name = pair[0].split(separator: " ").last.map(String.init) ?? pair[0]
            attributes[name] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return attributes
    }
}
