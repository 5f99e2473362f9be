import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import WebImage
import WebImageTerminal

/// `webimage gallery`: a full-screen, scrolling grid of images loaded with the library's
/// view layer — cells reused as they scroll, loads of cells that left the screen
/// cancelled, the next screen prefetched.
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Show images in a scrolling terminal grid (arrows, PgUp/PgDn, mouse wheel; q quits).",
        discussion: """
            The status line counts loads in flight, cancellations, hits by cache level and errors. \
            --demo serves generated images (every format, a few broken, every 30th a 404) from a \
            local server. --snapshot draws one frame once the visible images have loaded, prints \
            it and exits, for pipes and tests.
            """
    )

    @Argument(help: "Image URLs (http, https, file or data).")
    var urls: [String] = []

    @Option(name: .customLong("from"), help: "A file of image URLs, one per line (# starts a comment).")
    var listFile: String?

    @Flag(help: "Show images from the built-in demo server.")
    var demo = false

    @Option(help: "How many demo images to serve.")
    var count = 1000

    @Option(help: "How to draw pixels: halfBlocks, kitty or sixel (detected when not given).")
    var graphics: TerminalGraphics?

    @Flag(help: "Print one frame after the visible images have loaded, then exit.")
    var snapshot = false

    @Option(help: "Cells per row (fits the terminal when not given).")
    var columns: Int?

    @Option(help: "Rows of cells on screen (fits the terminal when not given).")
    var rows: Int?

    /// A cell is this many characters wide, the gap included…
    private static let cellColumns = 24
    /// …and its image this many text rows tall (a caption line goes below).
    private static let imageRows = 8

    func validate() throws {
        let sources = [!urls.isEmpty, listFile != nil, demo].filter { $0 }.count
        guard sources == 1 else {
            throw ValidationError("give image URLs, --from FILE or --demo (exactly one of them)")
        }
        guard count > 0 else { throw ValidationError("--count must be at least 1") }
        if let columns, columns < 1 { throw ValidationError("--columns must be at least 1") }
        if let rows, rows < 1 { throw ValidationError("--rows must be at least 1") }
    }

    func run() throws {
        let temporaryCache = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-gallery-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: temporaryCache) }
        let demoCount = count
        let server = try demo ? Self.waitFor { try await DemoImageServer.start(count: demoCount, largestSide: 384) } : nil
        defer {
            if let server { _ = try? Self.waitFor { try await server.stop() } }
        }
        let imageURLs = try server?.urls ?? listedURLs()
        let cache = demo ? ImageCache(namespace: "gallery", directory: temporaryCache) : .shared
        let manager = ImageManager(cache: cache)

        let terminal = TerminalSession.size() ?? (80, 24)
        let grid = (
            columns: columns ?? max(1, terminal.columns / Self.cellColumns),
            rows: rows ?? max(1, (terminal.rows - 1) / (Self.imageRows + 1))
        )
        let renderer = GalleryFrameRenderer(
            images: TerminalImageRenderer(graphics: graphics ?? (snapshot ? .halfBlocks : .detect())),
            cellColumns: Self.cellColumns,
            imageRows: Self.imageRows
        )
        let changed = NIOLockedValueBox(true)
        let pixelsPerCell = renderer.images.graphics == .halfBlocks ? PixelSize(width: 1, height: 2) : renderer.images.cellPixelSize
        let thumbnail = PixelSize(
            width: (renderer.cellColumns - 1) * pixelsPerCell.width,
            height: renderer.imageRows * pixelsPerCell.height
        )
        let model = GalleryModel(
            urls: imageURLs, columns: grid.columns, rows: grid.rows, thumbnailPixelSize: thumbnail, manager: manager
        ) {
            changed.withLockedValue { $0 = true }
        }
        defer { model.stop() }
        if snapshot {
            printSnapshot(of: model, renderer: renderer)
        } else {
            try browse(model, renderer: renderer, changed: changed)
        }
    }

    private func printSnapshot(of model: GalleryModel, renderer: GalleryFrameRenderer) {
        let settled = DispatchSemaphore(value: 0)
        model.start()
        model.whenVisibleLoadsSettle { settled.signal() }
        settled.wait()
        print(renderer.lines(for: model).joined(separator: "\n"))
        let overlay = renderer.imageOverlay(for: model)
        if !overlay.isEmpty {
            print(overlay)
        }
    }

    private func browse(_ model: GalleryModel, renderer: GalleryFrameRenderer, changed: NIOLockedValueBox<Bool>) throws {
        guard let session = TerminalSession() else {
            FileHandle.standardError.write(Data("error: the gallery needs a terminal; use --snapshot to print one frame\n".utf8))
            throw ExitCode(1)
        }
        defer { session.restore() }
        model.start()
        var tick = 0
        while !session.interrupted {
            for key in GalleryKey.keys(in: session.readInput()) {
                switch key {
                case .quit: return
                case .up, .wheelUp: model.scroll(byRows: -1)
                case .down, .wheelDown: model.scroll(byRows: 1)
                case .pageUp: model.scroll(byPages: -1)
                case .pageDown: model.scroll(byPages: 1)
                case .home: model.scroll(toRow: 0)
                case .end: model.scroll(toRow: model.layout.lastTopRow)
                }
            }
            let isLoading = !model.loadingItems.isEmpty
            guard
                changed.withLockedValue({ value in
                    defer { value = false }
                    return value
                }) || isLoading
            else { continue }
            tick += 1
            let lines = renderer.lines(for: model, tick: tick).map { $0 + "\u{1B}[K" }
            session.write("\u{1B}[H" + lines.joined(separator: "\r\n") + renderer.imageOverlay(for: model))
        }
    }

    private func listedURLs() throws -> [URL] {
        var lines = urls
        if let listFile {
            lines = try String(contentsOfFile: listFile, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        }
        let entries = lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        return try entries.map { entry in
            if let url = URL(string: entry), url.scheme != nil { return url }
            guard FileManager.default.fileExists(atPath: entry) else {
                throw ValidationError("not a URL or an existing file: \(entry)")
            }
            return URL(fileURLWithPath: entry)
        }
    }

    /// Runs `body` on the cooperative pool and waits for it on this (non-pool) thread.
    private static func waitFor<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
        let result = NIOLockedValueBox<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let value = try await body()
                result.withLockedValue { $0 = .success(value) }
            } catch {
                result.withLockedValue { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        switch result.withLockedValue({ $0 }) {
        case let .success(value)?: return value
        case let .failure(error)?: throw error
        case nil: throw CancellationError()
        }
    }
}
