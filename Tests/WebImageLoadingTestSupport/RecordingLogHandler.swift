import Logging
import NIOConcurrencyHelpers
@testable import WebImageTestSupport

/// A swift-log handler that keeps every message at `trace` and above, with its logger's
/// label, in a box shared by the loggers of one test.
struct RecordingLogHandler: LogHandler {
    /// The label of the logger each message went to, its level and its text.
    typealias Entry = (label: String, level: Logger.Level, message: String)

    let label: String
    let log: NIOLockedValueBox<[Entry]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        log.withLockedValue { $0.append((label, event.level, "\(event.message)")) }
    }
}
