import NIOConcurrencyHelpers
import WebImageTestSupport

/// Collects values from callbacks that run on other threads.
package final class DownloadCallbackRecorder<Value: Sendable>: Sendable {
    private let box = NIOLockedValueBox<[Value]>([])

    package init() {}

    package var values: [Value] { box.withLockedValue { $0 } }

    package func append(_ value: Value) {
        box.withLockedValue { $0.append(value) }
    }
}
