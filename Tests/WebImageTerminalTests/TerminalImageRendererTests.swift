import Foundation
import Testing
@testable import WebImage
@testable import WebImageTerminal
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite struct TerminalImageRendererTests {
    /// 2×2: red, green / blue, transparent.
    let quad: Image = {
        var bitmap = Bitmap(width: 2, height: 2)
        bitmap.pixels = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 0]
        return Image(bitmap: bitmap)
    }()

    @Test func halfBlocksPutTwoPixelRowsInOneTextRow() {
        let renderer = TerminalImageRenderer(graphics: .halfBlocks, background: RGBA8(red: 10, green: 20, blue: 30))
        let lines = renderer.render(quad, columns: 2, rows: 1)
        #expect(
            lines == [
                "\u{1B}[38;2;255;0;0;48;2;0;0;255m▀\u{1B}[38;2;0;255;0;48;2;10;20;30m▀\u{1B}[0m"
            ])
    }

    @Test func repeatedColoursAreNotRepeatedInTheOutput() {
        let flat = Image(bitmap: Bitmap(width: 8, height: 2, pixels: [UInt8](repeating: 200, count: 64)))
        let lines = TerminalImageRenderer().render(flat, columns: 8, rows: 1)
        #expect(lines.count == 1)
        #expect(lines[0].components(separatedBy: "\u{1B}[38;2").count == 2)
        #expect(lines[0].components(separatedBy: "▀").count == 9)
    }

    @Test func imagesFitTheCellsKeepingTheirShape() {
        let wide = Image(bitmap: Bitmap(width: 400, height: 100))
        let renderer = TerminalImageRenderer()
        #expect(renderer.cellSize(of: wide, columns: 40, rows: 40) == (40, 5))
        #expect(renderer.render(wide, columns: 40, rows: 40).count == 5)
        let tall = Image(bitmap: Bitmap(width: 100, height: 400))
        #expect(renderer.cellSize(of: tall, columns: 40, rows: 10) == (5, 10))
    }

    @Test func kittyCarriesTheExactPixels() throws {
        let renderer = TerminalImageRenderer(graphics: .kitty, cellPixelSize: PixelSize(width: 1, height: 1))
        let output = try #require(renderer.render(quad, columns: 2, rows: 2).first)
        #expect(output.hasPrefix("\u{1B}_Ga=T,f=32,s=2,v=2,c=2,r=2,q=2,m=0;"))
        #expect(output.hasSuffix("\u{1B}\\"))
        let payload = output.dropFirst("\u{1B}_Ga=T,f=32,s=2,v=2,c=2,r=2,q=2,m=0;".count).dropLast(2)
        #expect(Data(base64Encoded: String(payload)).map(Array.init) == quad.bitmap.pixels)
    }

    @Test func kittySplitsLargePayloadsIntoChunks() throws {
        let big = Image(bitmap: Bitmap(width: 64, height: 64))
        let renderer = TerminalImageRenderer(graphics: .kitty, cellPixelSize: PixelSize(width: 8, height: 16))
        let output = try #require(renderer.render(big, columns: 8, rows: 4).first)
        let commands = output.components(separatedBy: "\u{1B}_G").dropFirst()
        #expect(commands.count == (64 * 64 * 4 * 4 / 3 + 4095) / 4096)
        #expect(commands.last?.hasPrefix("m=0;") == true)
        #expect(commands.dropLast().allSatisfy { $0.contains("m=1;") })
    }

    @Test func sixelDeclaresThePaletteAndOneBandPerSixRows() throws {
        let renderer = TerminalImageRenderer(
            graphics: .sixel, cellPixelSize: PixelSize(width: 1, height: 1),
            background: RGBA8(red: 255, green: 255, blue: 255))
        let output = try #require(renderer.render(quad, columns: 2, rows: 2).first)
        #expect(output.hasPrefix("\u{1B}Pq\"1;1;2;2"))
        #expect(output.contains("#180;2;100;0;0"))
        #expect(output.contains("#30;2;0;100;0"))
        #expect(output.contains("#5;2;0;0;100"))
        #expect(output.contains("#215;2;100;100;100"))
        // Red sits in row 0 of column 0: bit 0 → "@", nothing in column 1 → "?".
        #expect(output.contains("#180@?"))
        #expect(output.hasSuffix("-\u{1B}\\"))
    }

    @Test func sixelRunsAreCompressed() throws {
        let wide = Image(bitmap: Bitmap(width: 10, height: 1, pixels: [UInt8](repeating: 255, count: 40)))
        let renderer = TerminalImageRenderer(graphics: .sixel, cellPixelSize: PixelSize(width: 1, height: 1))
        let output = try #require(renderer.render(wide, columns: 10, rows: 1).first)
        #expect(output.contains("#215!10@"))
    }

    @Test func detectsKittyFromTheEnvironment() {
        #expect(TerminalGraphics.detect(environment: ["TERM": "xterm-kitty"]) == .kitty)
        #expect(TerminalGraphics.detect(environment: ["KITTY_WINDOW_ID": "1", "TERM": "xterm-256color"]) == .kitty)
        #expect(TerminalGraphics.detect(environment: ["TERM": "xterm-256color"]) == .halfBlocks)
    }
}
