import Foundation

extension ImageManager {
    /// Runs the load engine (``load(_:emit:)``) for `request` and records how the load
    /// ended in the manager's logs and metrics: every API but the synchronous memory hit
    /// comes through here.
    func run(_ request: ImageRequest, emit: @escaping @Sendable (ImageLoadEvent) -> Void) async -> LoadOutcome {
        let outcome = await load(request, emit: emit)
        telemetry.recordLoad(of: request.url, outcome: outcome)
        return outcome
    }
}
