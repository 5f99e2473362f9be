import CoreMetrics
import NIOConcurrencyHelpers
import WebImageTestSupport

/// A swift-metrics handler of any kind that keeps every value added, set or recorded, in
/// order (for ``RecordingMetricsFactory``).
package final class RecordingMetricHandler: CounterHandler, FloatingPointCounterHandler, MeterHandler, RecorderHandler, TimerHandler, Sendable {
    private let values = NIOLockedValueBox<[Int64]>([])

    package init() {}

    /// Every value, in order.
    package var recorded: [Int64] { values.withLockedValue { $0 } }

    private func append(_ value: Int64) {
        values.withLockedValue { $0.append(value) }
    }

    package func increment(by amount: Int64) { append(amount) }
    package func increment(by amount: Double) { append(Int64(amount)) }
    package func decrement(by amount: Double) { append(-Int64(amount)) }
    package func reset() { values.withLockedValue { $0 = [] } }
    package func set(_ value: Int64) { append(value) }
    package func set(_ value: Double) { append(Int64(value)) }
    package func record(_ value: Int64) { append(value) }
    package func record(_ value: Double) { append(Int64(value)) }
    package func recordNanoseconds(_ duration: Int64) { append(duration) }
}
