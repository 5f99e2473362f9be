import Foundation

/// A fresh folder under the system's temporary directory, removed when released.
package final class TemporaryDirectory: @unchecked Sendable {
    /// The folder.
    package let url: URL

    package init(prefix: String = "webimage-tests") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the folder.
    package func appending(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }
}
