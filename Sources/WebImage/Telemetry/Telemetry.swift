import CoreMetrics
import Logging

/// Where a component of the library sends its logs (swift-log) and metrics
/// (swift-metrics).
///
/// By default both go to the process-wide backends, which do nothing until the program
/// bootstraps them (`LoggingSystem.bootstrap`, `MetricsSystem.bootstrap`) — before it
/// creates the component, since the component makes its loggers and metrics when it is
/// created. A component can also be given backends of its own, as tests do:
///
/// ```swift
/// var configuration = ImageDownloaderConfiguration()
/// configuration.telemetry = Telemetry(metricsFactory: myFactory)
/// ```
///
/// Each component logs under its own label (`webimage.downloader`, `webimage.decoder`,
/// `webimage.manager`), at `debug` and `trace` only. The metrics are listed in the README.
public struct Telemetry: Sendable {
    /// Makes the log handler of a component's logger from the logger's label.
    public typealias LogHandlerFactory = @Sendable (_ label: String) -> any LogHandler

    /// The log handlers of the component's loggers; `LoggingSystem`'s when `nil`.
    public var makeLogHandler: LogHandlerFactory?
    /// The factory of the component's metrics; `MetricsSystem.factory` when `nil`.
    public var metricsFactory: (any MetricsFactory)?

    /// Telemetry sent to the given backends, or the process-wide ones for those left `nil`.
    public init(makeLogHandler: LogHandlerFactory? = nil, metricsFactory: (any MetricsFactory)? = nil) {
        self.makeLogHandler = makeLogHandler
        self.metricsFactory = metricsFactory
    }

    /// A logger labelled `label`.
    func logger(label: String) -> Logger {
        guard let makeLogHandler else { return Logger(label: label) }
        return Logger(label: label, factory: makeLogHandler)
    }

    /// The metrics factory to make the component's metrics with, now.
    var factory: any MetricsFactory {
        metricsFactory ?? MetricsSystem.factory
    }
}
