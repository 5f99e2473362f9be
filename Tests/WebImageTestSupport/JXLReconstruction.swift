import Foundation
import Testing

/// libjxl's own tool on a JPEG XL made from a JPEG: `djxl` rebuilds the JPEG from the
/// `jbrd` box (Debian's `libjxl-tools`, which `scripts/install-system-packages.sh`
/// installs), and the file's top-level boxes are listed here.
package enum JXLReconstruction {
    /// `djxl`, when it is installed.
    package static let djxl: URL? = ["/usr/bin/djxl", "/usr/local/bin/djxl"]
        .map { URL(fileURLWithPath: $0) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// The trait of the tests that need `djxl`.
    package static let required: ConditionTrait = .enabled(if: djxl != nil, "needs djxl (apt: libjxl-tools)")

    /// Why `djxl` gave no JPEG.
    package struct Failure: Error, CustomStringConvertible {
        /// `djxl`'s exit status and what it wrote to standard error.
        package let description: String
    }

    /// The JPEG `djxl` rebuilds from `jxl`, through files in `directory`.
    package static func jpeg(from jxl: Data, in directory: URL) throws -> Data {
        guard let djxl else { throw Failure(description: "djxl is not installed") }
        let name = UUID().uuidString
        let input = directory.appendingPathComponent("\(name).jxl"), output = directory.appendingPathComponent("\(name).jpg")
        try jxl.write(to: input)
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        let process = Process()
        process.executableURL = djxl
        process.arguments = [input.path, output.path]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "djxl exited with \(process.terminationStatus): \(String(decoding: message, as: UTF8.self))")
        }
        return try Data(contentsOf: output)
    }

    /// The types of the top-level boxes of a JPEG XL container (`JXL `, `ftyp`, `jbrd`,
    /// `jxlc`, …); empty for a bare codestream.
    package static func boxTypes(of jxl: Data) -> [String] {
        let bytes = [UInt8](jxl)
        guard !bytes.starts(with: [0xFF, 0x0A]) else { return [] }
        var types: [String] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if size == 1, offset + 16 <= bytes.count {
                size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
            } else if size == 0 {
                size = bytes.count - offset
            }
            guard size >= 8 else { break }
            types.append(type)
            offset += size
        }
        return types
    }
}
