import ArgumentParser
import Foundation
import WebImage

/// `webimage convert`: decodes one image and writes it in another format or size.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Decode an image and write it again, optionally as a thumbnail.",
        discussion: "The output format comes from OUT's extension (jpg, png, gif, webp)."
    )

    @Argument(help: "The image to read.")
    var input: String

    @Argument(help: "The file to write.")
    var output: String

    @Option(help: "Fit the image inside WIDTHxHEIGHT pixels, keeping its aspect ratio.")
    var thumbnail: PixelSize?

    @Option(help: "Quality for lossy formats, 0 to 100.")
    var quality: Double = 90

    func run() throws {
        let outputURL = URL(fileURLWithPath: output)
        guard let format = ImageFormat(fileExtension: outputURL.pathExtension) else {
            throw ValidationError("cannot tell the output format from '\(outputURL.pathExtension)'")
        }
        do {
            guard let data = FileManager.default.contents(atPath: input) else {
                throw ImageError(.fileSystem, "cannot read \(input)")
            }
            let options = ImageDecodeOptions(thumbnailPixelSize: thumbnail)
            let image = try ImageCodersManager.shared.decode(data, options: options)
            let encoded = try ImageCodersManager.shared.encode(
                image, as: format, options: ImageEncodeOptions(quality: quality / 100)
            )
            guard FileManager.default.createFile(atPath: output, contents: encoded) else {
                throw ImageError(.fileSystem, "cannot write \(output)")
            }
            print("\(output): \(format.rawValue) \(image.pixelWidth)×\(image.pixelHeight), \(encoded.count) bytes")
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
