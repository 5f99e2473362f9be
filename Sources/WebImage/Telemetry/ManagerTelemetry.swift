import CoreMetrics
import Foundation
import Logging

/// The logs (`webimage.manager`) and metrics of one ``ImageManager``.
///
/// Metrics: `webimage_loads_total` (loads that ended with an image, by `cache_type`:
/// `memory`, `disk` or `none` for a download), `webimage_load_errors_total` (loads that
/// failed, by `code`) and `webimage_transform_duration` (a timer). A memory hit answered at
/// once (``ImageManager/loadImage(with:progress:completion:)`` before it returns, or
/// ``ImageManager/image(for:)`` without suspending) is counted with one increment and logs
/// nothing: that path is benchmarked.
struct ManagerTelemetry: Sendable {
    let logger: Logger
    private let factory: any MetricsFactory
    private let memoryLoads: Counter
    private let diskLoads: Counter
    private let downloadedLoads: Counter
    private let transformDuration: CoreMetrics.Timer

    init(_ telemetry: Telemetry) {
        logger = telemetry.logger(label: "webimage.manager")
        factory = telemetry.factory
        memoryLoads = Counter(label: "webimage_loads_total", dimensions: [("cache_type", "memory")], factory: factory)
        diskLoads = Counter(label: "webimage_loads_total", dimensions: [("cache_type", "disk")], factory: factory)
        downloadedLoads = Counter(label: "webimage_loads_total", dimensions: [("cache_type", "none")], factory: factory)
        transformDuration = CoreMetrics.Timer(label: "webimage_transform_duration", factory: factory)
    }

    /// Records how a load of `url` ended.
    func recordLoad(of url: URL?, outcome: LoadOutcome) {
        switch outcome {
        case let .image(_, _, cacheType, _):
            switch cacheType {
            case .memory: memoryLoads.increment()
            case .disk: diskLoads.increment()
            case .none, .all: downloadedLoads.increment()
            }
            logger.trace("load finished", metadata: ["url": "\(url?.absoluteString ?? "")", "cache_type": "\(cacheType.rawValue)"])
        case let .failed(error):
            Counter(label: "webimage_load_errors_total", dimensions: [("code", error.code.rawValue)], factory: factory).increment()
            logger.debug("load failed", metadata: ["url": "\(url?.absoluteString ?? "")", "code": "\(error.code.rawValue)", "error": "\(error.message)"])
        case .notModified, .declined, .cancelled:
            logger.trace("load ended without a new image", metadata: ["url": "\(url?.absoluteString ?? "")"])
        }
    }

    /// Counts a memory hit answered at once, without the load engine: by `loadImage` before
    /// it returns, or by `image(for:)` without suspending.
    func recordSynchronousMemoryHit() {
        memoryLoads.increment()
    }

    /// Records how long a transformer took.
    func recordTransform(duration: Duration) {
        transformDuration.recordNanoseconds(duration.nanoseconds)
    }
}
