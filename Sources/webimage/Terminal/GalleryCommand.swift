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
            local server. Animations (GIF, APNG, WebP) play in the cells on screen, their frames \
            decoded as they play; a cell that scrolls away stops its animation and frees its \
            frames. --snapshot draws one frame once the visible images have loaded, prints it and \
            exits, for pipes and tests; --play-for plays for a while without a terminal, then \
            prints the last frame, how many animation frames were shown and skipped, and the \
            most memory their decoded frames held at once: all cells share one frame budget \
            (--frame-budget sets it).
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

    @Flag(help: "Show the first frame of animations instead of playing them.")
    var noAnimations = false

    @Flag(help: "Decode images at their own size rather than the size a cell shows.")
    var fullSize = false

    @Option(help: "Play for this many seconds without a terminal, then print the last frame and a summary.")
    var playFor: Double?

    @Option(help: "MiB of decoded animation frames all cells hold together (the library's shared budget when not given).")
    var frameBudget: Int?

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
        if let frameBudget, frameBudget < 0 { throw ValidationError("--frame-budget must be at least 0") }
        if let playFor {
            guard playFor > 0 else { throw ValidationError("--play-for must be more than 0 seconds") }
            guard !snapshot else { throw ValidationError("--snapshot and --play-for do not go together") }
        }
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
        let isHeadless = snapshot || playFor != nil
        let renderer = GalleryFrameRenderer(
            images: TerminalImageRenderer(graphics: graphics ?? (isHeadless ? .halfBlocks : .detect())),
            cellColumns: Self.cellColumns,
            imageRows: Self.imageRows
        )
        let changed = NIOLockedValueBox(true)
        let pixelsPerCell = renderer.images.graphics == .halfBlocks ? PixelSize(width: 1, height: 2) : renderer.images.cellPixelSize
        let thumbnail = PixelSize(
            width: (renderer.cellColumns - 1) * pixelsPerCell.width,
            height: renderer.imageRows * pixelsPerCell.height
        )
        // A snapshot shows the posters: its animations play by a clock that never moves.
        let clock: any AnimationClock = snapshot ? ManualAnimationClock() : SystemAnimationClock()
        let budget = frameBudget.map { AnimationFrameBudget(limit: $0 << 20) } ?? .shared
        let model = GalleryModel(
            urls: imageURLs, columns: grid.columns, rows: grid.rows, thumbnailPixelSize: fullSize ? nil : thumbnail,
            playsAnimations: !noAnimations, animationClock: clock, frameBudget: budget, manager: manager
        ) {
            changed.withLockedValue { $0 = true }
        }
        defer { model.stop() }
        if snapshot {
            printSnapshot(of: model, renderer: renderer)
        } else if let playFor {
            play(model, for: playFor, renderer: renderer, changed: changed, budget: budget)
        } else {
            try browse(model, renderer: renderer, changed: changed)
        }
    }

    private func printSnapshot(of model: GalleryModel, renderer: GalleryFrameRenderer) {
        Self.showFirstScreen(of: model)
        print(renderer.lines(for: model).joined(separator: "\n"))
        let overlay = renderer.imageOverlay(for: model)
        if !overlay.isEmpty {
            print(overlay)
        }
    }

    /// Starts `model` and waits, on this (non-pool) thread, until its first screen settled.
    private static func showFirstScreen(of model: GalleryModel) {
        let settled = DispatchSemaphore(value: 0)
        model.start()
        model.whenVisibleLoadsSettle { settled.signal() }
        settled.wait()
    }

    /// Plays the first screen for `seconds` by the system clock, drawing each changed frame
    /// (into nothing) as often as ``browse(_:renderer:changed:)`` would, then prints the last
    /// frame and a summary line, with the most bytes of frames `budget` held at once.
    private func play(
        _ model: GalleryModel, for seconds: Double, renderer: GalleryFrameRenderer, changed: NIOLockedValueBox<Bool>,
        budget: AnimationFrameBudget
    ) {
        Self.showFirstScreen(of: model)
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(seconds * 1e9)
        var draws = 0
        while DispatchTime.now().uptimeNanoseconds < end {
            usleep(UInt32(Self.frameInterval * 1e6))
            guard
                changed.withLockedValue({ value in
                    defer { value = false }
                    return value
                })
            else { continue }
            _ = renderer.lines(for: model, tick: draws)
            draws += 1
        }
        let playing = model.playingItems.count
        print(renderer.lines(for: model).joined(separator: "\n"))
        print(
            "played \(model.animationFramesShown) animation frames in \(playing) cells over \(seconds) s,"
                + " \(model.animationFramesSkipped) skipped, \(draws) screens drawn;"
                + " frames held at most \(Self.mebibytes(budget.peakHeldByteCount)) of a \(Self.mebibytes(budget.limit)) budget"
        )
    }

    /// `bytes` in MiB, to one decimal.
    private static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }

    /// How long the interactive loop waits for a key between screens, in seconds (the
    /// terminal's read timeout, `VTIME`, in ``TerminalSession``).
    private static let frameInterval = 0.1

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
