import CoreMetrics
import NIOConcurrencyHelpers
import WebImageTestSupport

/// A swift-metrics backend that keeps every value in memory, for one test: handed to a
/// component through its `Telemetry`, so tests running in parallel never share it (no
/// global bootstrap).
package final class RecordingMetricsFactory: MetricsFactory, Sendable {
    /// The handlers by name: the label, then the dimensions sorted, as `label{a=1,b=2}`.
    private let handlers = NIOLockedValueBox<[String: RecordingMetricHandler]>([:])

    package init() {}

    private static func name(_ label: String, _ dimensions: [(String, String)]) -> String {
        "\(label){\(dimensions.map { "\($0.0)=\($0.1)" }.sorted().joined(separator: ","))}"
    }

    private func handler(_ label: String, _ dimensions: [(String, String)]) -> RecordingMetricHandler {
        handlers.withLockedValue { handlers in
            let name = Self.name(label, dimensions)
            if let handler = handlers[name] { return handler }
            let handler = RecordingMetricHandler()
            handlers[name] = handler
            return handler
        }
    }

    /// The values recorded under `label` with `dimensions`; empty when none were.
    package func values(_ label: String, _ dimensions: [(String, String)] = []) -> [Int64] {
        handlers.withLockedValue { $0[Self.name(label, dimensions)] }?.recorded ?? []
    }

    /// The sum of the values recorded under `label` with `dimensions`.
    package func total(_ label: String, _ dimensions: [(String, String)] = []) -> Int64 {
        values(label, dimensions).reduce(0, +)
    }

    /// The labels of every metric made so far, with or without values.
    package var labels: Set<String> {
        handlers.withLockedValue { Set($0.keys.map { String($0.prefix { $0 != "{" }) }) }
    }

    package func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler { handler(label, dimensions) }
    package func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler { handler(label, dimensions) }
    package func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler { handler(label, dimensions) }
    package func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler { handler(label, dimensions) }
    package func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { handler(label, dimensions) }
    package func destroyCounter(_ handler: any CounterHandler) {}
    package func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    package func destroyMeter(_ handler: any MeterHandler) {}
    package func destroyRecorder(_ handler: any RecorderHandler) {}
    package func destroyTimer(_ handler: any TimerHandler) {}
}
