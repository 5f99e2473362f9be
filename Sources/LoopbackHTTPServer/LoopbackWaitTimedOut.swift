/// A wait on a ``LoopbackWatchedValue`` (such as
/// ``LoopbackHTTPServer/waitForRequests(to:count:timeout:)``) whose condition did not hold
/// within its time.
public struct LoopbackWaitTimedOut: Error, CustomStringConvertible {
    /// How long the wait lasted.
    public let timeout: Duration

    /// What the failed test reports.
    public var description: String { "the condition waited for did not hold within \(timeout)" }
}
