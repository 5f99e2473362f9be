import Logging
import NIOConcurrencyHelpers
import WebImageTestSupport

/// A swift-log handler that keeps every message with its metadata (the logger's and the
/// call's), in a box shared by the loggers of one test.
package struct MetadataRecordingLogHandler: LogHandler {
    /// One message and its metadata, values as text.
    package typealias Entry = (message: String, metadata: [String: String])

    package let log: NIOLockedValueBox<[Entry]>
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .trace

    package init(log: NIOLockedValueBox<[Entry]>) {
        self.log = log
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        log.withLockedValue { $0.append(("\(event.message)", merged.mapValues { "\($0)" })) }
    }
}
