import NIOPosix

/// Runs the server's route handlers on two threads of their own, not on the cooperative
/// pool, so the server still answers while every cooperative thread of the process is busy
/// (a test suite decoding large images, say).
///
/// The threads are a `NIOThreadPool`'s, not Dispatch's: a concurrent `DispatchQueue`
/// draws on the same width-limited root queue as the cooperative pool, and was starved
/// with it.
final class LoopbackTaskExecutor: TaskExecutor {
    /// The one executor all servers of the process share.
    static let shared = LoopbackTaskExecutor()

    private let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pool.submit { _ in
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
