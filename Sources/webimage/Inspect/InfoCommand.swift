import ArgumentParser
import Foundation
import WebImage

/// `webimage info`: decodes files and describes what came out.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Decode image files and print their format, size, frames and timing.",
        discussion: "Exits 0 when every file decoded and 1 when any failed. A folder stands for the files in it."
    )

    @Flag(help: "Print one JSON object per file (with --formats, per format).")
    var json = false

    @Flag(help: "Print the formats the coders decode and encode instead of describing files.")
    var formats = false

    @Argument(help: "Image files, or folders of them.")
    var files: [String] = []

    func validate() throws {
        if files.isEmpty && !formats {
            throw ValidationError("Name at least one file, or pass --formats.")
        }
    }

    func run() throws {
        if formats {
            let table = FormatsTable(coders: .shared)
            print(json ? table.json : table.text)
            return
        }
        var failures = 0
        for file in expandedFiles() {
            let line: String
            do {
                let data = try read(file)
                let options = ImageDecodeOptions(scaleFactor: Image.scale(forKey: file))
                let image = try ImageCodersManager.shared.decode(data, options: options)
                line = json ? describeJSON(image, file: file) : describeText(image, file: file)
            } catch {
                failures += 1
                line = json ? failureJSON(error, file: file) : "\(file): error \(error)"
            }
            print(line)
        }
        if failures > 0 { throw ExitCode(1) }
    }

    private func expandedFiles() -> [String] {
        files.flatMap { path -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                let names = try? FileManager.default.contentsOfDirectory(atPath: path)
            else { return [path] }
            return names.filter { !$0.hasPrefix(".") }.sorted().map { (path as NSString).appendingPathComponent($0) }
        }
    }

    private func read(_ file: String) throws(ImageError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ImageError(.fileSystem, "cannot read \(file): \(error.localizedDescription)")
        }
    }

    private func describeText(_ image: Image, file: String) -> String {
        var text = "\(file): \(image.format.rawValue) \(image.pixelWidth)×\(image.pixelHeight)"
        text += image.hasAlpha ? " alpha" : " opaque"
        text += " \(image.bitDepth)-bit"
        if image.scale != 1 { text += " @\(Int(image.scale))x" }
        if image.orientation != .up { text += " orientation \(image.orientation.rawValue)" }
        if let gainMap = image.gainMap {
            text += ", gain map \(gainMap.pixelSize.width)×\(gainMap.pixelSize.height) \(gainMap.metadata.channelCount)-channel"
            if let headroom = gainMap.metadata.headroom { text += String(format: " headroom %.2f stops", headroom) }
        }
        if image.isAnimated {
            let loops = image.loopCount == 0 ? "forever" : "\(image.loopCount)×"
            text += String(format: ", %d frames, %.2f s, loops %@", image.frames.count, image.duration, loops)
        }
        return text
    }

    private func describeJSON(_ image: Image, file: String) -> String {
        var object = JSONObject()
        object.add("file", file)
        object.add("ok", true)
        object.add("format", image.format.rawValue)
        object.add("width", image.pixelWidth)
        object.add("height", image.pixelHeight)
        object.add("frames", image.frames.count)
        object.add("loopCount", image.loopCount)
        object.add("durations", image.frames.map(\.duration))
        object.add("hasAlpha", image.hasAlpha)
        object.add("bitDepth", image.bitDepth)
        if let gainMap = image.gainMap {
            var map = JSONObject()
            map.add("width", gainMap.pixelSize.width)
            map.add("height", gainMap.pixelSize.height)
            map.add("channels", gainMap.metadata.channelCount)
            if let headroom = gainMap.metadata.headroom { map.add("headroom", headroom) }
            object.add("gainMap", map)
        }
        return object.description
    }

    private func failureJSON(_ error: ImageError, file: String) -> String {
        var object = JSONObject()
        object.add("file", file)
        object.add("ok", false)
        object.add("error", error.jsonObject)
        return object.description
    }
}
