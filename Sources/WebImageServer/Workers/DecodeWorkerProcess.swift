import Foundation
import CSpawn
import Glibc
import NIOConcurrencyHelpers
import WebImage

/// One decode worker process, from its spawn to its reaping: it is started with
/// `posix_spawn`, every signal at its default and none blocked, with one end of a Unix
/// socket pair as its standard input and output, the server's standard error as its own
/// (a library's message, a Rust panic's, goes to the server's log), and no other
/// descriptor (`posix_spawn_file_actions_addclosefrom_np`).
///
/// ``exchange(_:maxAnswerBytes:)`` blocks: it runs on a thread of its own, never on an
/// event loop or the cooperative pool. ``kill()`` may come from any thread at any time; it
/// never signals a process already reaped (whose number may be another's by then).
final class DecodeWorkerProcess: Sendable {
    /// The process's id.
    let pid: pid_t
    /// The server's end of the socket pair.
    private let socket: Int32
    /// The file the worker writes its decoded pixels in, closed with this object.
    let pixels: DecodeWorkerPixelFile
    /// When it was spawned.
    private let spawned = ContinuousClock.now
    /// Whether the process has been reaped, whether the server killed it, and how long it
    /// took to be ready (`nil` until it said so).
    private let state = NIOLockedValueBox((reaped: false, killed: false, startup: Duration?.none))

    /// The time from its spawn to its ready byte, once it has sent it: what a read that
    /// takes it waiting does not wait.
    var startup: Duration? {
        state.withLockedValue { $0.startup }
    }

    /// Whether the worker, waiting for its request, has ended: its socket has something to
    /// read (its end, or bytes a waiting worker does not send).
    var hasEnded: Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) != 0
    }

    private init(pid: pid_t, socket: Int32, pixels: DecodeWorkerPixelFile) {
        self.pid = pid
        self.socket = socket
        self.pixels = pixels
    }

    deinit {
        pixels.close()
    }

    /// Starts `executable` with `arguments` (after its name) and `environment` (`NAME=value`
    /// texts; nothing of the server's own is passed on).
    ///
    /// - Throws: `ImageError` `.badImageData` naming the call that failed.
    static func spawn(_ executable: URL, arguments: [String], environment: [String]) throws(ImageError) -> DecodeWorkerProcess {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw ImageError(.badImageData, "the decode worker's socket pair failed (errno \(errno))")
        }
        let pixels: DecodeWorkerPixelFile
        do throws(ImageError) {
            pixels = try DecodeWorkerPixelFile.make()
        } catch {
            close(pair[0])
            close(pair[1])
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, pair[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, pixels.descriptor, DecodeWorkerPixelFile.workerDescriptor)
        posix_spawn_file_actions_addclosefrom_np(&actions, DecodeWorkerPixelFile.workerDescriptor + 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), every = sigset_t()
        sigemptyset(&none)
        sigfillset(&every)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &every)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        close(pair[1])
        guard spawned == 0 else {
            close(pair[0])
            pixels.close()
            throw ImageError(.badImageData, "the decode worker \(executable.path) could not be started (errno \(spawned))")
        }
        return DecodeWorkerProcess(pid: pid, socket: pair[0], pixels: pixels)
    }

    /// Kills the process (`SIGKILL`) unless it has been reaped; ``exchange(_:maxAnswerBytes:)``
    /// then ends ``DecodeWorkerEnding/killed``.
    func kill() {
        state.withLockedValue { state in
            guard !state.reaped else { return }
            state.killed = true
            _ = Glibc.kill(pid, SIGKILL)
        }
    }

    /// Reads the worker's ready byte (``DecodeWorker/readyByte``), sent once its limits are
    /// applied, unless it was read before; whether the worker is ready. Blocks until it is,
    /// or has ended.
    func awaitReady() -> Bool {
        guard startup == nil else { return true }
        var byte: UInt8 = 0
        while true {
            let read = recv(socket, &byte, 1, 0)
            if read < 0, errno == EINTR { continue }
            guard read == 1, byte == DecodeWorker.readyByte else { return false }
            let startup = ContinuousClock.now - spawned
            state.withLockedValue { $0.startup = startup }
            return true
        }
    }

    /// Kills the process and reaps it, for a worker that is asked nothing; in place of
    /// ``exchange(_:maxAnswerBytes:)``. Blocks until the process has ended.
    func discard() {
        kill()
        close(socket)
        _ = reap()
    }

    /// Reads the ready byte if it was not, writes `request` (an encoded ``DecodeWorkerRequest``), reads the answer's fields (at
    /// most `maxAnswerBytes`; a longer answer kills the worker), waits for the process to
    /// end and reaps it. Blocks; call it once.
    func exchange(_ request: Data, maxAnswerBytes: Int) -> DecodeWorkerEnding {
        // A worker started for this read says it is ready first; one that waited said so
        // already. A worker that ends first leaves the request unread: its end says why.
        _ = awaitReady()
        // A worker that stops reading (it crashed) leaves the rest unsent: its end says why.
        _ = request.withUnsafeBytes { buffer in transfer(buffer.count) { send(socket, buffer.baseAddress! + $0, $1, Int32(MSG_NOSIGNAL)) } }
        var answer: Data?
        var length = Data(count: 8)
        if receive(into: &length) {
            var wire = DecodeWorkerWire(reading: length)
            if let count = try? wire.readInt(in: 0...maxAnswerBytes) {
                var fields = Data(count: count)
                if receive(into: &fields) { answer = fields }
            } else {
                _ = Glibc.kill(pid, SIGKILL)
            }
        }
        close(socket)
        let status = reap()
        let (killed, signal, exit) = (state.withLockedValue { $0.killed }, status & 0x7f, (status >> 8) & 0xff)
        if let answer, signal == 0 || !killed { return .answered(answer) }
        if killed { return .killed }
        if signal != 0 { return .signalled(signal) }
        return .failed("the decode worker exited with status \(exit) without a readable answer")
    }

    /// Fills `data` from the socket; whether it was filled before the socket ended.
    private func receive(into data: inout Data) -> Bool {
        let count = data.count
        return data.withUnsafeMutableBytes { buffer in transfer(count) { recv(socket, buffer.baseAddress! + $0, $1, 0) } }
    }

    /// Calls `step` with the offset and the bytes left until `count` bytes have moved;
    /// whether they all did before a step moved none or failed.
    private func transfer(_ count: Int, _ step: (Int, Int) -> Int) -> Bool {
        var done = 0
        while done < count {
            let moved = step(done, count - done)
            if moved < 0, errno == EINTR { continue }
            guard moved > 0 else { return false }
            done += moved
        }
        return true
    }

    /// Waits for the process to end, then reaps it; its wait status. Between the end and
    /// the reaping, ``kill()`` may still signal it (a zombie ignores the signal); after, it
    /// never does.
    private func reap() -> Int32 {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        return state.withLockedValue { state in
            state.reaped = true
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return status
        }
    }
}
