import Logging
import NIOConcurrencyHelpers
@testable import WebImageTestSupport

/// A swift-log handler that keeps every message with its metadata (the logger's and the
/// call's), in a box shared by the loggers of one test.
struct MetadataRecordingLogHandler: LogHandler {
    /// One message and its metadata, values as text.
    typealias Entry = (message: String, metadata: [String: String])

    let log: NIOLockedValueBox<[Entry]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        log.withLockedValue { $0.append(("\(event.message)", merged.mapValues { "\($0)" })) }
    }
}
