import Foundation
import WebImage

/// The summary of one demo run: where the images came from, which loads failed and
/// whether each failure was one of the sample set's deliberate ones, what went over the
/// network, and the time spent decoding.
struct DemoRunReport {
    /// The run's heading.
    let title: String
    /// The number of loads.
    let loads: Int
    /// From the start of the first load to the end of the last.
    let wallTime: Duration
    /// Successful loads by where the image came from.
    private(set) var hits: [ImageCacheType: Int] = [:]
    /// Failed loads by error code.
    private(set) var errorsByCode: [String: Int] = [:]
    /// Failures of samples that are broken or missing on purpose.
    private(set) var expectedErrors = 0
    /// What went wrong that should not have, one line per load.
    private(set) var unexpected: [String] = []
    /// Bytes received from the server, as the downloads' progress reported them.
    let networkBytes: Int64
    /// The decodes the pipeline ran during the run, timed inside the coders.
    let decode: DecodeTimer.Totals

    /// Sorts the `records` of loading `urls`; `expectedFailures` holds the indices of the
    /// samples that must fail.
    init(
        title: String, urls: [URL], records: [LoadRecord], expectedFailures: Set<Int>,
        wallTime: Duration, decode: DecodeTimer.Totals
    ) {
        self.title = title
        loads = records.count
        self.wallTime = wallTime
        self.decode = decode
        networkBytes = records.reduce(0) { $0 + $1.receivedBytes }
        for (index, record) in records.enumerated() {
            let mustFail = expectedFailures.contains(index)
            if record.succeeded {
                hits[record.cacheType, default: 0] += 1
                if mustFail { unexpected.append("\(urls[index].lastPathComponent): loaded, but it is broken on purpose") }
            } else {
                errorsByCode[record.error.code.rawValue, default: 0] += 1
                if mustFail {
                    expectedErrors += 1
                } else {
                    unexpected.append("\(urls[index].lastPathComponent): \(record.error)")
                }
            }
        }
    }

    /// The number of successful loads that came from `type`.
    func count(_ type: ImageCacheType) -> Int {
        hits[type, default: 0]
    }

    /// The summary, a heading and four indented lines.
    var lines: [String] {
        let seconds = max(wallTime.seconds, 1e-9)
        let errors = errorsByCode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let network =
            networkBytes == 0
            ? "none"
            : "\(Terminal.megabytes(networkBytes)) received at \(String(format: "%.1f", Double(networkBytes) / 1e6 / seconds)) MB/s"
        return [
            title,
            "  loads:   \(loads) in \(Terminal.seconds(wallTime)) (\(Int(Double(loads) / seconds)) images/s): "
                + "\(count(.memory)) from memory, \(count(.disk)) from disk, \(count(.none)) from the network",
            "  errors:  \(expectedErrors) expected, \(unexpected.count) unexpected" + (errors.isEmpty ? "" : " (\(errors))"),
            "  network: \(network)",
            "  decode:  " + String(format: "%.3f s", decode.seconds)
                + " in \(decode.decodes) decodes (time inside the coders, summed over all threads)",
        ]
    }
}
