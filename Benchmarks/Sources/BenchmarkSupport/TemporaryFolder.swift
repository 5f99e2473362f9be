import Foundation

/// A location in the temporary directory that no one else uses, not yet created, for a
/// benchmark's files; the benchmark removes it when done.
public func uniqueTemporaryFolder(named prefix: String = "webimage-bench") -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
}
