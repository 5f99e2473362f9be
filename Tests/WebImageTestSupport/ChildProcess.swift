import Foundation
import Glibc

/// A child process started for a test, and a wait for its end that blocks no thread and
/// always ends.
///
/// Two things in `Foundation.Process` can hang a test run on Linux, so neither is used:
/// - `waitUntilExit()` parks the calling thread; on the cooperative pool (two threads on a
///   two-core machine) two such waits stop every other test.
/// - Its exit detection (`isRunning`, the termination handler) watches a socket the child
///   holds, which a sibling spawned at the same moment from another thread can inherit
///   (swift-corelibs-foundation issue 4795): the child's end then goes unnoticed until the
///   sibling ends too, and a long-lived sibling (`webimage serve`, nginx) never does.
///
/// Instead the wait asks the kernel with `waitid(…, WNOWAIT)`, which reports the exit
/// without reaping the child (Foundation still reaps it), polling every 10 ms. A child that
/// outlives its time gets SIGTERM and then SIGKILL (a child inherits the signal mask of the
/// thread that spawned it, and a Dispatch thread blocks SIGTERM, so only a program that
/// unblocks it, as `webimage serve` does, ends on SIGTERM). A wait whose task is cancelled
/// (a test's time limit) kills the child.
package final class ChildProcess: @unchecked Sendable {
    /// A child that had to be killed, or whose end never came.
    package struct DidNotExit: Error, CustomStringConvertible {
        package let executable: String
        package let seconds: Double
        package var description: String { "\(executable) was still running after \(seconds) s" }
    }

    private let process: Process

    /// Starts `process`, which must not be running yet.
    package init(_ process: Process) throws {
        self.process = process
        try process.run()
    }

    /// Whether the child is still running.
    package var isRunning: Bool { exitStatus() == nil }

    /// The child's process identifier.
    package var processIdentifier: Int32 { process.processIdentifier }

    /// Sends `signal` to the child, if it is still running.
    package func send(_ signal: Int32) {
        if isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits for the child to exit and returns its exit status (or, for a child a signal
    /// ended, the signal's number, as `Process.terminationStatus` does). A child still
    /// running after `seconds` gets SIGTERM, and SIGKILL `grace` seconds later; the wait
    /// then throws ``DidNotExit``. Cancelling the waiting task kills the child.
    @discardableResult
    package func waitForExit(within seconds: Double = 600, grace: Double = 10) async throws -> Int32 {
        var deadline = ContinuousClock.now + .seconds(seconds)
        var signalled: Int32?
        while true {
            if let status = exitStatus() {
                guard signalled == nil else { throw didNotExit(within: seconds) }
                return status
            }
            if ContinuousClock.now > deadline {
                let next: Int32
                switch signalled {
                case nil: next = SIGTERM
                case SIGTERM: next = SIGKILL
                default: throw didNotExit(within: seconds)
                }
                send(next)
                signalled = next
                deadline = ContinuousClock.now + .seconds(grace)
            }
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                send(SIGKILL)
                throw error
            }
        }
    }

    private func didNotExit(within seconds: Double) -> DidNotExit {
        DidNotExit(executable: process.executableURL?.lastPathComponent ?? "?", seconds: seconds)
    }

    /// The child's status once it has exited; `nil` while it runs.
    private func exitStatus() -> Int32? {
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(process.processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT)
        if result == 0 {
            guard info._sifields._sigchld.si_pid != 0 else { return nil }
            return info._sifields._sigchld.si_status
        }
        // Foundation reaped it first (ECHILD): its own state has the status, or soon will.
        return process.isRunning ? nil : process.terminationStatus
    }
}
