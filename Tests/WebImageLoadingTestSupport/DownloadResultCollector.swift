import WebImage
import WebImageTestSupport

/// Collects the results of the callback API and lets a test wait for a number of them.
package final class DownloadResultCollector: Sendable {
    private let log = ArrivalLog<Result<ImageLoadResult, ImageError>>()

    package init() {}

    package var results: [Result<ImageLoadResult, ImageError>] { log.elements }

    package var errors: [ImageError] {
        results.compactMap { result in
            if case .failure(let error) = result { return error }
            return nil
        }
    }

    package var images: [Image] {
        results.compactMap { try? $0.get().image }
    }

    package func record(_ result: Result<ImageLoadResult, ImageError>) {
        log.append(result)
    }

    /// Returns once `count` results have arrived; throws as `ArrivalLog.wait(for:)` does.
    package func wait(for count: Int) async throws {
        try await log.wait(for: count)
    }
}
