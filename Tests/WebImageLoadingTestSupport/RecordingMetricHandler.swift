import CoreMetrics
import NIOConcurrencyHelpers
@testable import WebImageTestSupport

/// A swift-metrics handler of any kind that keeps every value added, set or recorded, in
/// order (for ``RecordingMetricsFactory``).
final class RecordingMetricHandler: CounterHandler, FloatingPointCounterHandler, MeterHandler, RecorderHandler, TimerHandler, Sendable {
    private let values = NIOLockedValueBox<[Int64]>([])

    /// Every value, in order.
    var recorded: [Int64] { values.withLockedValue { $0 } }

    private func append(_ value: Int64) {
        values.withLockedValue { $0.append(value) }
    }

    func increment(by amount: Int64) { append(amount) }
    func increment(by amount: Double) { append(Int64(amount)) }
    func decrement(by amount: Double) { append(-Int64(amount)) }
    func reset() { values.withLockedValue { $0 = [] } }
    func set(_ value: Int64) { append(value) }
    func set(_ value: Double) { append(Int64(value)) }
    func record(_ value: Int64) { append(value) }
    func record(_ value: Double) { append(Int64(value)) }
    func recordNanoseconds(_ duration: Int64) { append(duration) }
}
