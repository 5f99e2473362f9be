import Dispatch

/// Runs the server's route handlers on Dispatch threads of their own, not on the
/// cooperative pool, so the server still answers while every cooperative thread of the
/// process is busy (a test suite decoding large images, say).
final class LoopbackTaskExecutor: TaskExecutor {
    /// The one executor all servers of the process share.
    static let shared = LoopbackTaskExecutor()

    private let queue = DispatchQueue(label: "LoopbackHTTPServer.handlers", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
