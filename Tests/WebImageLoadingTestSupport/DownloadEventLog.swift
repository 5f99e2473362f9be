import Foundation
import WebImage
import WebImageTestSupport

/// Records a downloader's retry events as they arrive, for tests that count attempts.
package final class DownloadEventLog: Sendable {
    /// The retries reported so far, in order.
    package let retries = ArrivalLog<DownloadRetry>()
    private let reader: Task<Void, Never>

    /// Starts recording the events of `downloader`; recording ends when it shuts down.
    package init(_ downloader: ImageDownloader) {
        let events = downloader.events()
        let retries = retries
        reader = Task {
            for await event in events {
                if case .retrying(_, let retry) = event {
                    retries.append(retry)
                }
            }
        }
    }

    /// The attempt numbers the retries announced.
    package var retriedAttempts: [Int] { retries.elements.map(\.attempt) }
}
