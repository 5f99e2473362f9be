import Foundation
import Testing

/// Finds an executable of this package that `swift test` built beside the test bundle,
/// in `<scratch path>/<triple>/<configuration>` (or higher up, from inside a bundle folder),
/// whichever scratch path the build used.
package enum BuiltExecutable {
    package struct NotFound: Error {
        package let name: String
    }

    /// The condition of tests that run the `webimage` tool: off only in Sanitizers/, whose
    /// package builds the codec tests without the tool (it defines `WITHOUT_WEBIMAGE_TOOL`).
    package static var webimageIsBuilt: ConditionTrait {
        #if WITHOUT_WEBIMAGE_TOOL
        .disabled("Sanitizers/ builds no webimage tool; scripts/test.sh runs this test")
        #else
        .enabled(if: true)
        #endif
    }

    /// The executable called `name`.
    package static func url(named name: String) throws -> URL {
        let running =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: running).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        throw NotFound(name: name)
    }
}
