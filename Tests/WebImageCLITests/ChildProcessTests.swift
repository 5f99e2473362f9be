import Foundation
import Glibc
import Testing
import WebImageTestSupport
import WebImageLoadingTestSupport

/// The test support's child-process wait, which every test that runs a program relies on
/// to end.
@Suite("ChildProcess")
struct ChildProcessTests {
    /// A shell that leaves a grandchild behind holding every descriptor it inherited, the
    /// socket Foundation watches included (swift-corelibs-foundation issue 4795).
    @Test func anExitIsSeenWhileAGrandchildHoldsFoundationsSocket() async throws {
        let folder = TemporaryDirectory(prefix: "child-process")
        let pidFile = folder.appending("grandchild.pid")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sleep 86400 & echo $! > '\(pidFile.path)'; exit 3"]
        let child = try ChildProcess(process)
        let status = try await child.waitForExit(within: 60)
        let grandchild = try #require(Int32(String(decoding: try Data(contentsOf: pidFile), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(grandchild, SIGKILL) }
        #expect(status == 3)
        #expect(!child.isRunning)
        #expect(process.isRunning, "Foundation has not noticed the exit while the grandchild lives")
    }

    // The children sleep a day, not ten minutes: in the full suite under ThreadSanitizer a
    // test task can wait more than ten minutes for a thread between starting its child and
    // waiting for it, and a `sleep 600` had then ended on its own with status 0.
    @Test func aChildThatOutlivesItsTimeIsKilledAndTheWaitThrows() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["86400"]
        let child = try ChildProcess(process)
        await #expect(throws: ChildProcess.DidNotExit.self) { try await child.waitForExit(within: 0.2, grace: 0.2) }
        #expect(!child.isRunning, "SIGTERM or SIGKILL ended it")
    }

    @Test func cancellingTheWaitKillsTheChild() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["86400"]
        let child = try ChildProcess(process)
        let waiting = Task { try await child.waitForExit() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(await eventually(within: 60) { !child.isRunning })
    }
}
