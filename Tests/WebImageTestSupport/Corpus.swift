import Foundation
import Testing

/// The shared image corpora beside the project (`../shared/corpora`), which exist on
/// the developers' machines and in CI but not in every clone.
///
/// Suites that read them carry `.enabled(if: Corpus.isAvailable)` so that, without the
/// folder, they report themselves skipped instead of failing.
package enum Corpus {
    /// The project's root folder, found from this file's path (with symbolic links resolved:
    /// Sanitizers/ compiles this file through one).
    package static let projectRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent()  // WebImageTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `../shared/corpora` from the project root.
    package static let root: URL =
        projectRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared/corpora", isDirectory: true)

    /// Whether the corpora are present.
    package static let isAvailable: Bool = FileManager.default.fileExists(atPath: root.path)

    /// The trait that skips a suite or test when the corpora are absent.
    package static let required: ConditionTrait = .enabled(if: isAvailable, "needs ../shared/corpora")

    /// The trait of the codec suites that decode whole corpus folders: they run in plain builds
    /// and under AddressSanitizer (`scripts/test-asan.sh`), and are skipped under
    /// ThreadSanitizer. Each of their decodes runs on one thread, so ThreadSanitizer has no
    /// race to find in them, while its instrumented pixel loops made these suites more than
    /// half of the ThreadSanitizer run's CPU time (about 840 of 1,500 CPU-seconds).
    package static let skippedUnderThreadSanitizer: ConditionTrait = .disabled(
        if: ThreadSanitizer.isActive, "decoded under AddressSanitizer by scripts/test-asan.sh")

    /// The URL of a corpus file, e.g. `url("pngsuite/basn0g01.png")`.
    package static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The bytes of a corpus file.
    package static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// The files in a corpus folder (not recursive), sorted by name, optionally only those
    /// with one of `extensions`.
    package static func files(in folder: String, extensions: Set<String>? = nil) -> [URL] {
        relativePaths(under: folder, extensions: extensions, recursive: false)
            .map { url(folder).appendingPathComponent($0) }
    }

    /// The paths, relative to `folder`, of the files in it (and, when `recursive`, in its
    /// subfolders), sorted, optionally only those with one of `extensions`.
    package static func relativePaths(under folder: String, extensions: Set<String>? = nil, recursive: Bool = true) -> [String] {
        let directory = url(folder)
        let manager = FileManager.default
        let names =
            recursive
            ? (manager.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? [])
            : ((try? manager.contentsOfDirectory(atPath: directory.path)) ?? [])
        return names.sorted().filter { name in
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: directory.appendingPathComponent(name).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { return false }
            return extensions.map { $0.contains((name as NSString).pathExtension.lowercased()) } ?? true
        }
    }
}
