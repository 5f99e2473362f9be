import NIOConcurrencyHelpers

/// Changes the priority of a load while its download waits in the queue, whichever
/// downloads the load starts: the handle an ``ImageLoadOperation`` passes down to the
/// downloader through ``ImageLoadRequest/priorityControl``.
public final class DownloadPriorityControl: Sendable {
    private struct State {
        var priority: DownloadPriority?
        var tokens: [DownloadToken] = []
    }

    private let state = NIOLockedValueBox(State())

    /// Creates a control that leaves the requests' own priorities until set.
    public init() {}

    /// The priority set last, or `nil` when none was set.
    public var priority: DownloadPriority? {
        state.withLockedValue { $0.priority }
    }

    /// Gives every download attached now or later this priority.
    public func setPriority(_ priority: DownloadPriority) {
        let tokens = state.withLockedValue { state in
            state.priority = priority
            return state.tokens
        }
        for token in tokens {
            token.setPriority(priority)
        }
    }

    /// Attaches the caller's share of a download, giving it the priority set so far.
    func attach(_ token: DownloadToken) {
        let priority = state.withLockedValue { state in
            state.tokens.append(token)
            return state.priority
        }
        if let priority {
            token.setPriority(priority)
        }
    }
}
