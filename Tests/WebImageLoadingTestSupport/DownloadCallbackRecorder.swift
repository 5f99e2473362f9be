import NIOConcurrencyHelpers
@testable import WebImageTestSupport

/// Collects values from callbacks that run on other threads.
final class DownloadCallbackRecorder<Value: Sendable>: Sendable {
    private let box = NIOLockedValueBox<[Value]>([])

    var values: [Value] { box.withLockedValue { $0 } }

    func append(_ value: Value) {
        box.withLockedValue { $0.append(value) }
    }
}
