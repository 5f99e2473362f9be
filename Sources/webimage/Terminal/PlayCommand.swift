import ArgumentParser
import Foundation
import WebImage
import WebImageTerminal

/// `webimage play`: plays one animation in the terminal, its frames decoded as they play.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an animated image (GIF, APNG, WebP) in the terminal until q is pressed.",
        discussion: """
            The animation loops as the file says, then stays on its last frame. Frames are decoded \
            while it plays, a few ahead, instead of all at once. With --snapshot-frames the \
            animation plays on a simulated clock, without a terminal: each of the first N frames \
            is printed under a "frame INDEX at SECONDS s" line, then a summary.
            """
    )

    @Argument(help: "An image file, or an http, https, file or data URL.")
    var source: String

    @Option(name: .customLong("snapshot-frames"), help: "Print the first N frames and exit instead of playing.")
    var snapshotFrames: Int?

    @Option(help: "How to draw pixels: halfBlocks, kitty or sixel (detected when not given).")
    var graphics: TerminalGraphics?

    @Option(help: "Cells per row (fits the terminal, else 60, when not given).")
    var columns: Int?

    @Option(help: "Rows of cells (fits the terminal, else 20, when not given).")
    var rows: Int?

    func validate() throws {
        if let snapshotFrames, snapshotFrames < 1 {
            throw ValidationError("--snapshot-frames needs at least 1 frame.")
        }
    }

    func run() async throws {
        let image: Image
        do {
            image = try await load()
        } catch {
            Terminal.writeError("webimage play: \(source): \(error)\n")
            throw ExitCode(1)
        }
        let animation = image.animation ?? AnimatedImage(image)
        let renderer = TerminalImageRenderer(graphics: graphics ?? (snapshotFrames == nil ? .detect() : .halfBlocks))
        let size = TerminalSession.size()
        let area = (columns: columns ?? size?.columns ?? 60, rows: rows ?? size.map { $0.rows - 1 } ?? 20)
        if let snapshotFrames {
            await printFrames(snapshotFrames, of: animation, renderer: renderer, area: area)
        } else {
            try await play(animation, renderer: renderer, area: area)
        }
    }

    /// The image at ``source``, its frames left to decode on demand when it is animated.
    private func load() async throws -> Image {
        var options = ImageDecodeOptions(scaleFactor: Image.scale(forKey: source))
        options.decodesFramesOnDemand = true
        if let url = URL(string: source), let scheme = url.scheme, ["http", "https", "data"].contains(scheme) {
            let request = ImageRequest(url: url, options: [.decodeFramesOnDemand, .cacheMemoryOnly])
            guard let image = try await ImageManager.shared.image(for: request).image else {
                throw ImageError(.badImageData, "the load gave no image")
            }
            return image
        }
        let path = URL(string: source).flatMap { $0.isFileURL ? $0.path : nil } ?? source
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try ImageCodersManager.shared.decode(data, options: options)
    }

    /// Plays on a manual clock, waiting for each next frame to decode before its time comes,
    /// and prints every frame shown.
    private func printFrames(_ count: Int, of animation: AnimatedImage, renderer: TerminalImageRenderer, area: (columns: Int, rows: Int)) async {
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(animation, clock: clock)
        player.onFrameChange = { index, frame in
            let picture = renderer.render(Image(bitmap: frame.bitmap), columns: area.columns, rows: area.rows)
            print(String(format: "frame %d at %.3f s", index, clock.now))
            print(picture.joined(separator: "\n") + "\u{1B}[0m")
        }
        player.play()
        var shown = 0
        while shown < count {
            guard await waitUntil({ player.currentFrameIndex != nil }) else { break }
            shown += 1
            guard shown < count, let deadline = clock.nextDeadline, let current = player.currentFrameIndex else { break }
            let next = (current + 1) % animation.frameCount
            _ = await waitUntil { player.bufferedFrameIndices.contains(next) }
            clock.advance(by: deadline - clock.now)
        }
        player.stop()
        print("\(shown) frames shown of \(animation.frameCount), \(player.skippedFrameCount) skipped")
    }

    /// Plays in real time until q, Ctrl-C or the end of input.
    private func play(_ animation: AnimatedImage, renderer: TerminalImageRenderer, area: (columns: Int, rows: Int)) async throws {
        guard let session = TerminalSession() else {
            Terminal.writeError("webimage play: needs a terminal; use --snapshot-frames N to print frames instead\n")
            throw ExitCode(1)
        }
        defer { session.restore() }
        let player = AnimatedImagePlayer(animation)
        player.onFrameChange = { _, frame in
            let picture = renderer.render(Image(bitmap: frame.bitmap), columns: area.columns, rows: area.rows)
            FileHandle.standardOutput.write(Data(("\u{1B}[H" + picture.joined(separator: "\r\n") + "\u{1B}[0m").utf8))
        }
        player.play()
        while !session.interrupted, !session.readInput().contains(UInt8(ascii: "q")) {
            await Task.yield()
        }
        player.stop()
    }

    /// Polls `condition` every millisecond for up to ten seconds; whether it came true.
    private func waitUntil(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<10_000 {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return condition()
    }
}
