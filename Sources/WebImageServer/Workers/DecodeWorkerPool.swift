import Foundation
import NIOConcurrencyHelpers
import WebImage

/// The decode workers started ahead of their reads: ``size`` of them wait, started and
/// ready (their limits applied, the binary loaded), so that a read does not wait for a
/// worker's start; each still answers one read and ends, so that a source that takes a
/// worker over cannot reach a later read.
///
/// A read takes a waiting worker, and another is started in its place on a thread of its
/// own; when none waits, the read starts one itself. A waiting worker that has ended (it
/// was killed, or its start failed) is reaped when a read comes to take it and replaced.
/// ``close()`` ends the waiting workers; a server that stops without closing leaves them
/// reading their socket, which ends with the server's process, and then so do they.
///
/// Every worker starts with the most address space any read may be allowed (the hard
/// limit, which it cannot raise), then lowers it to its read's before reading the source
/// (see ``DecodeWorker``).
final class DecodeWorkerPool: Sendable {
    /// The worker executable, run as `EXECUTABLE decode-worker …`.
    let executable: URL
    /// The arguments after the executable's name: the limits every worker starts with.
    let arguments: [String]
    /// The workers kept waiting.
    let size: Int
    /// Where the pool's events are counted.
    let metrics: ImageServerMetrics
    /// The workers waiting, those being started, and whether the pool is closed.
    private let state = NIOLockedValueBox((waiting: [DecodeWorkerProcess](), starting: 0, closed: false))

    /// A pool of `size` workers of `executable`, each started with `addressSpace` bytes of
    /// address space at most and `cpuSeconds` of CPU time, counted in `metrics`.
    init(executable: URL, size: Int, addressSpace: Int, cpuSeconds: Int, metrics: ImageServerMetrics) {
        self.executable = executable
        self.size = max(0, size)
        arguments = ["decode-worker", "--address-space", String(addressSpace), "--cpu-seconds", String(cpuSeconds)]
        self.metrics = metrics
    }

    /// A worker for one read: a waiting one, or one started now when none waits.
    ///
    /// - Throws: `ImageError` `.badImageData` when a worker cannot be started.
    func take() throws(ImageError) -> DecodeWorkerProcess {
        defer { refill() }
        while let worker = state.withLockedValue({ $0.waiting.popLast() }) {
            guard !worker.hasEnded else {
                worker.discard()
                metrics.recordDecodeWorkerPool(event: "lost")
                continue
            }
            metrics.recordDecodeWorkerPool(event: "taken")
            if let startup = worker.startup { metrics.recordDecodeWorkerStartup(startup, waited: false) }
            return worker
        }
        if size > 0 { metrics.recordDecodeWorkerPool(event: "missed") }
        return try DecodeWorkerProcess.spawn(executable, arguments: arguments, environment: DecodeWorkers.environment)
    }

    /// Starts as many workers as the pool lacks, each on a thread of its own.
    func refill() {
        let count = state.withLockedValue { state -> Int in
            guard !state.closed else { return 0 }
            let count = max(0, size - state.waiting.count - state.starting)
            state.starting += count
            return count
        }
        for _ in 0..<count { Thread { self.startOne() }.start() }
    }

    /// Ends the waiting workers; none is started after.
    func close() {
        let waiting = state.withLockedValue { state in
            state.closed = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for worker in waiting { worker.discard() }
    }

    /// Starts one worker and, once it is ready, adds it to the waiting ones. Blocks.
    private func startOne() {
        let worker = try? DecodeWorkerProcess.spawn(executable, arguments: arguments, environment: DecodeWorkers.environment)
        let ready = worker?.awaitReady() ?? false
        let kept = state.withLockedValue { state in
            state.starting -= 1
            guard ready, !state.closed, let worker else { return false }
            state.waiting.append(worker)
            return true
        }
        if kept {
            metrics.recordDecodeWorkerPool(event: "started")
        } else {
            worker?.discard()
            if !ready { metrics.recordDecodeWorkerPool(event: "failed") }
        }
    }
}
