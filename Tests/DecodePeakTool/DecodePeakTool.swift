import Foundation
import WebImageCoders
import WebImageCore

/// A child process for the decode-memory tests: decodes one image file with the built-in
/// coders and prints what the decode added to the process's peak resident memory, so that
/// a test can hold each codec's measured peak to the plan the server admits it at.
///
/// Usage: `DecodePeakTool <file>`; prints `<width> <height> <frames> <peak bytes>`. The file
/// is read first; the kernel's high-water mark (`VmHWM`) is then reset to what the process
/// holds (`/proc/self/clear_refs`), so the figure is the decode's alone: its peak
/// resident memory over the resident memory just before it.
@main
struct DecodePeakTool {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: DecodePeakTool <file>\n".utf8))
            exit(2)
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1 << 30
        options.maxTotalBytes = 1 << 34
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = try status("VmRSS")
        let image = try ImageCodersManager.shared.decode(data, options: options)
        let peak = try status("VmHWM")
        print("\(image.pixelWidth) \(image.pixelHeight) \(image.frames.count) \(peak - before)")
    }

    /// The field `name` of `/proc/self/status`, in bytes.
    static func status(_ name: String) throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            if let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { return kilobytes * 1024 }
        }
        throw CocoaError(.fileReadCorruptFile)
    }
}
