import ArgumentParser
import Foundation
import WebImage

/// `webimage samples`: writes the built-in sample images to a folder.
struct SamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Write the built-in sample images (every format, animated, 16-bit, broken) to a folder."
    )

    @Argument(help: "The folder to write into (created if missing).")
    var folder: String

    @Option(help: "How many samples to write; 12 gives one of each kind.")
    var count = 12

    func run() throws {
        let directory = URL(fileURLWithPath: folder, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let set: SampleImageSet
        do {
            set = try SampleImageSet(count: count)
        } catch {
            FileHandle.standardError.write(Data("error: cannot make the samples: \(error)\n".utf8))
            throw ExitCode(1)
        }
        for sample in set.samples {
            try Data(sample.data).write(to: directory.appendingPathComponent(sample.name))
        }
        print("wrote \(set.samples.count) samples to \(directory.path)")
    }
}
