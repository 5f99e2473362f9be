#if Server
import ArgumentParser
import Foundation
import WebImageServer

/// `webimage decode-worker`, hidden from help: the decode worker `webimage serve` spawns
/// for each read of a source whose format decodes in a worker (see `DecodeWorker`). It
/// applies its limits, reads one request on standard input and answers on standard output.
struct DecodeWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-worker",
        abstract: "Decode one source read from standard input, within limits (run by `webimage serve`).",
        shouldDisplay: false
    )

    @Option(help: "The most bytes of address space the worker may map (RLIMIT_AS).")
    var addressSpace: Int

    @Option(help: "The most seconds of CPU time the worker may use (RLIMIT_CPU).")
    var cpuSeconds: Int

    /// Runs the worker and ends the process with its status, never returning to the tool's
    /// asynchronous main: its next hop may need a thread, whose stack the address-space
    /// limit no longer allows, and libdispatch waits for one for ever.
    func run() throws {
        Foundation.exit(DecodeWorker.run(addressSpace: addressSpace, cpuSeconds: cpuSeconds))
    }
}
#endif
