@testable import WebImage
@testable import WebImageTestSupport

/// Collects the results of the callback API and lets a test wait for a number of them.
final class DownloadResultCollector: Sendable {
    private let log = ArrivalLog<Result<ImageLoadResult, ImageError>>()

    var results: [Result<ImageLoadResult, ImageError>] { log.elements }

    var errors: [ImageError] {
        results.compactMap { result in
            if case .failure(let error) = result { return error }
            return nil
        }
    }

    var images: [Image] {
        results.compactMap { try? $0.get().image }
    }

    func record(_ result: Result<ImageLoadResult, ImageError>) {
        log.append(result)
    }

    /// Returns once `count` results have arrived; throws as `ArrivalLog.wait(for:)` does.
    func wait(for count: Int) async throws {
        try await log.wait(for: count)
    }
}
