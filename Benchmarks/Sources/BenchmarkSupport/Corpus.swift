import Foundation

/// Reads a file of the shared image corpora (`../shared/corpora` beside the project).
///
/// The benchmarks measure real images; without the corpora they stop with a message
/// naming the missing file.
public func corpusData(_ relativePath: String) -> Data {
    let projectRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // BenchmarkSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // Benchmarks
        .deletingLastPathComponent()
    let url = projectRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora/\(relativePath)")
    guard let data = FileManager.default.contents(atPath: url.path) else {
        fatalError("the benchmarks need \(url.path) (the shared corpora beside the project)")
    }
    return data
}
