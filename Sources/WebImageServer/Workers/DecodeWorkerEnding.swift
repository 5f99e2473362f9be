import Foundation

/// How a decode worker's run ended, as ``DecodeWorkerProcess`` saw it.
enum DecodeWorkerEnding: Sendable {
    /// The worker answered: the fields of its answer.
    case answered(Data)
    /// The server killed it (`SIGKILL`): the request's deadline passed or its task was
    /// cancelled.
    case killed
    /// A signal of its own ended it: a crash (`SIGSEGV`, `SIGABRT` of a Rust panic, a trap),
    /// or a limit (`SIGXCPU` past its CPU seconds, a failed allocation past its address
    /// space); the signal's number.
    case signalled(Int32)
    /// It ended without an answer and without a signal, or answered what cannot be read;
    /// why.
    case failed(String)
}
