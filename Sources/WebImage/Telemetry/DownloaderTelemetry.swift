import CoreMetrics
import Foundation
import Logging

/// The logs and metrics of one ``ImageDownloader``: its transfers (`webimage.downloader`)
/// and its decoding (`webimage.decoder`).
///
/// Metrics: `webimage_downloaded_bytes_total` (body bytes of every transfer),
/// `webimage_download_errors_total` (failed transfers, by `code`) and
/// `webimage_decode_duration` (a timer, by `outcome`: `success` or `failure`).
struct DownloaderTelemetry: Sendable {
    let logger: Logger
    let decoderLogger: Logger
    private let factory: any MetricsFactory
    private let downloadedBytes: Counter
    private let decodeSuccesses: CoreMetrics.Timer
    private let decodeFailures: CoreMetrics.Timer

    init(_ telemetry: Telemetry) {
        logger = telemetry.logger(label: "webimage.downloader")
        decoderLogger = telemetry.logger(label: "webimage.decoder")
        factory = telemetry.factory
        downloadedBytes = Counter(label: "webimage_downloaded_bytes_total", factory: factory)
        decodeSuccesses = CoreMetrics.Timer(label: "webimage_decode_duration", dimensions: [("outcome", "success")], factory: factory)
        decodeFailures = CoreMetrics.Timer(label: "webimage_decode_duration", dimensions: [("outcome", "failure")], factory: factory)
    }

    /// Records a transfer that ended: its bytes and, when it failed, its error.
    func recordTransfer(of url: URL, metrics: DownloadMetrics, outcome: Result<(DownloadResponseHead, Data), ImageError>) {
        downloadedBytes.increment(by: Int64(metrics.bytesReceived))
        switch outcome {
        case .success:
            logger.debug(
                "download finished",
                metadata: [
                    "url": "\(url.absoluteString)", "status": "\(metrics.statusCode ?? 0)", "bytes": "\(metrics.bytesReceived)",
                    "redirects": "\(metrics.redirectCount)", "duration": "\(metrics.duration)",
                ])
        case .failure(let error):
            Counter(label: "webimage_download_errors_total", dimensions: [("code", error.code.rawValue)], factory: factory).increment()
            logger.debug("download failed", metadata: ["url": "\(url.absoluteString)", "code": "\(error.code.rawValue)", "error": "\(error.message)"])
        }
    }

    /// Records how long one decode took and how it ended.
    func recordDecode(of url: URL, duration: Duration, result: Result<ImageLoadResult, ImageError>) {
        switch result {
        case .success(let loaded):
            decodeSuccesses.recordNanoseconds(duration.nanoseconds)
            decoderLogger.trace(
                "decoded",
                metadata: [
                    "url": "\(url.absoluteString)", "format": "\(loaded.image.map { "\($0.format)" } ?? "")", "duration": "\(duration)",
                ])
        case .failure(let error):
            decodeFailures.recordNanoseconds(duration.nanoseconds)
            decoderLogger.debug("decoding failed", metadata: ["url": "\(url.absoluteString)", "code": "\(error.code.rawValue)", "error": "\(error.message)"])
        }
    }
}
