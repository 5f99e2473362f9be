import Logging
import NIOConcurrencyHelpers
import WebImageTestSupport

/// A swift-log handler that keeps every message at `trace` and above, with its logger's
/// label, in a box shared by the loggers of one test.
package struct RecordingLogHandler: LogHandler {
    /// The label of the logger each message went to, its level and its text.
    package typealias Entry = (label: String, level: Logger.Level, message: String)

    package let label: String
    package let log: NIOLockedValueBox<[Entry]>
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .trace

    package init(label: String, log: NIOLockedValueBox<[Entry]>) {
        self.label = label
        self.log = log
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        log.withLockedValue { $0.append((label, event.level, "\(event.message)")) }
    }
}
