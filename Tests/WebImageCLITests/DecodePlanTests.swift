import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Each codec's decode stays within the memory the server plans it at: a picture written
/// by the project's own encoder is decoded in a child process (`DecodePeakTool`), whose
/// peak resident memory over what it held before the decode must not pass the plan
/// (`SourceHeader`'s bytes a pixel of the format). Peak memory, not time, is measured, so
/// the figure does not depend on the machine's load; a sanitizer's shadow memory would
/// inflate it, so the test runs only in ordinary builds.
@Suite(.serialized, .disabled(if: ThreadSanitizer.isActive, "ThreadSanitizer's shadow memory inflates every resident size"))
struct DecodePlanTests {
    /// The formats the built-in coders both write and read, in this build.
    static let formats: [ImageFormat] = [.jpeg, .png, .webp, .avif, .heic, .jxl, .tiff, .gif, .bmp].filter {
        ImageCodersManager.shared.canEncode(to: $0)
    }

    @Test(arguments: formats)
    func theDecodesPeakStaysWithinItsPlan(_ format: ImageFormat) async throws {
        let folder = TemporaryDirectory(prefix: "decode-plan")
        let file = folder.appending("picture.\(format.rawValue)")
        let picture = Image(bitmap: ManagerTestImage.bitmap(width: 3000, height: 2000, tint: 90))
        let data = try ImageCodersManager.shared.encode(picture, as: format)
        try data.write(to: file)
        let header = try SourceHeader(data: data, coders: .shared, options: ImageDecodeOptions(), maxAspectRatio: 200)
        #expect(header.format == format)

        let process = Process()
        process.executableURL = try BuiltExecutable.url(named: "DecodePeakTool")
        process.arguments = [file.path]
        let report = folder.appending("peak.txt")
        #expect(FileManager.default.createFile(atPath: report.path, contents: nil))
        process.standardOutput = try FileHandle(forWritingTo: report)
        let child = try ChildProcess(process)
        #expect(try await child.waitForExit(within: 600) == 0)
        let printed = try Data(contentsOf: report)
        let fields = String(decoding: printed, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(fields.count == 4, "the tool printed \(String(decoding: printed, as: UTF8.self))")
        #expect(fields[0] * fields[1] == 3000 * 2000)
        let peak = fields[3]
        #expect(
            peak <= header.decodeBytes,
            "\(format.rawValue): the decode peaked at \(peak) bytes, \(Double(peak) / Double(3000 * 2000)) a pixel, over its plan of \(header.decodeBytes)")
    }
}
