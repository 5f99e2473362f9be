import Foundation
import NIOConcurrencyHelpers
import WebImage

/// The server's decode workers: the sources whose format decodes in a worker (SVG always,
/// and ``ImageServerConfiguration/decodeWorkerFormats``) have their header read, their
/// pixels decoded and their `/info` made in a ``DecodeWorker`` process that answers that
/// one read and ends, never in the server's process. ``ImageServerConfiguration/decodeWorkerPoolSize``
/// workers wait ready ahead of their reads (``DecodeWorkerPool``), started by ``start()``.
///
/// A worker's address space is limited to its read's plan (twice the planned decode bytes,
/// for the image and the coder's working copies, and four times the source's bytes) plus
/// ``ImageServerConfiguration/decodeWorkerAddressSpace`` for the binary and its libraries
/// (a worker started ahead starts with the most any read may have: the allowance, twice the
/// memory budget and four times the largest source, and lowers it when its read comes);
/// its CPU time to the request's deadline plus one second. When the request's task is
/// cancelled — its deadline passed, or its client left — the worker is killed and reaped.
///
/// How a read ends, and what the request hears (each counted in
/// `webimage_decode_workers_total` by outcome):
/// - `decoded`: the worker answered what was asked;
/// - `refused`: the worker answered the coder's typed error, answered as an in-process
///   decode's would be;
/// - `killed`: the server killed it at the deadline: 504;
/// - `crashed`: a signal ended it (a crash, or a limit passed): 422, "the source could not
///   be decoded (decode worker ended by signal N)";
/// - `failed`: it could not be started, or ended without a readable answer: 500.
///
/// Without a worker executable (an app embedding the server library that sets none), such
/// a source is answered 415 and is never read in process.
///
/// Room Workers/: decodes that cannot be bounded in the process, run in `webimage decode-worker` processes that can be killed.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
struct DecodeWorkers: Sendable {
    /// The workers, waiting or started for a read; `nil` without a worker executable.
    let pool: DecodeWorkerPool?
    /// The formats read in workers, SVG included.
    let formats: Set<ImageFormat>
    /// The address space allowed beyond a read's plan.
    let addressSpace: Int
    let metrics: ImageServerMetrics
    /// The workers running.
    private let running = NIOLockedValueBox(0)

    /// The environment a worker runs in, and nothing of the server's: glibc keeps one
    /// malloc arena (each more reserves 64 MiB of address space), librsvg's filters (rayon)
    /// render on one thread, so that CPU time is time, and a crash ends the worker at once
    /// (Swift's backtracer, which a crash under the address-space limit left waiting for
    /// ever, is off).
    static let environment = ["MALLOC_ARENA_MAX=1", "RAYON_NUM_THREADS=1", "SWIFT_BACKTRACE=enable=no"]

    /// The workers of `configuration`, counted in `metrics`.
    init(_ configuration: ImageServerConfiguration, metrics: ImageServerMetrics) {
        formats = configuration.decodeWorkerFormats.union([.svg])
        addressSpace = configuration.decodeWorkerAddressSpace
        let most =
            Double(configuration.decodeWorkerAddressSpace) + 2 * Double(configuration.memoryBudget) + 4 * Double(configuration.maxSourceBytes)
        pool = configuration.decodeWorkerExecutable.map { executable in
            DecodeWorkerPool(
                executable: executable, size: configuration.decodeWorkerPoolSize, addressSpace: Int(min(most, Double(Int.max / 2))),
                cpuSeconds: Int(configuration.requestTimeout.rounded(.up)) + 1, metrics: metrics)
        }
        self.metrics = metrics
    }

    /// Starts the workers that wait for reads.
    func start() {
        pool?.refill()
    }

    /// Ends the workers that wait for reads; a read still running ends as it would.
    func close() {
        pool?.close()
    }

    /// Whether `data` is read in a worker: the coder of `coders` that would decode it
    /// decodes one of ``formats``.
    func reads(_ data: Data, coders: ImageCodersManager) -> Bool {
        guard let coder = coders.coders.last(where: { $0.canDecode(data) }) else { return false }
        return !coder.decodableFormats.isDisjoint(with: formats)
    }

    /// The size `data`'s header declares and the frames it holds, read in a worker.
    func header(of data: Data, options: ImageDecodeOptions) async throws(ImageServerError) -> (size: PixelSize?, frames: Int) {
        guard case .header(let size, let frames) = try await run(.header, data, options: options, plannedBytes: 0, pixelBytes: 0, maxAnswerBytes: 1 << 10) else {
            throw Self.unreadable
        }
        return (size, frames)
    }

    /// `data` decoded with `options` in a worker, planned at `plannedBytes`.
    func decode(_ data: Data, options: ImageDecodeOptions, plannedBytes: Int) async throws(ImageServerError) -> Image {
        // The pixels are in the pixel file, at most the decode the request planned (and
        // holds in the memory budget); the answer describes them, and carries the colour
        // profile (at most the plan, and 64 MiB), with a mebibyte for the rest.
        let most = min(plannedBytes, 64 << 20) + (1 << 20)
        guard case .image(let image) = try await run(.decode, data, options: options, plannedBytes: plannedBytes, pixelBytes: plannedBytes, maxAnswerBytes: most)
        else { throw Self.unreadable }
        return image
    }

    /// The `/info` JSON of `data`, made in a worker, planned at `plannedBytes`.
    func info(of data: Data, options: ImageDecodeOptions, plannedBytes: Int) async throws(ImageServerError) -> String {
        guard
            case .info(let json) = try await run(
                .info, data, options: options, plannedBytes: plannedBytes, pixelBytes: 0, maxAnswerBytes: DecodeWorkerAnswer.maxInfoBytes + 64)
        else { throw Self.unreadable }
        return json
    }

    /// Reads `kind` from `data` with `options` in a worker, its pixel file sealed at
    /// `pixelBytes`, and answers what it answered.
    private func run(
        _ kind: DecodeWorkerRequest.Kind, _ data: Data, options: ImageDecodeOptions, plannedBytes: Int, pixelBytes: Int, maxAnswerBytes: Int
    ) async throws(ImageServerError) -> DecodeWorkerAnswer {
        guard let pool else {
            throw ImageServerError(
                .unsupportedMediaType, "source format needs a decode worker",
                detail: "SVG and the decodeWorkerFormats are decoded only in a decode worker, and no decodeWorkerExecutable is set")
        }
        let limit = Double(addressSpace) + 2 * Double(plannedBytes) + 4 * Double(data.count)
        let request = DecodeWorkerRequest(kind: kind, options: options, data: data, addressSpace: Int(min(limit, Double(Int.max / 2))))
        let process: DecodeWorkerProcess
        do throws(ImageError) {
            process = try pool.take()
        } catch {
            record("failed", change: 0)
            throw ImageServerError(.internalServerError, "the decode worker could not be started", detail: error.message)
        }
        do throws(ImageError) {
            try process.pixels.seal(bytes: pixelBytes)
        } catch {
            process.discard()
            record("failed", change: 0)
            throw ImageServerError(.internalServerError, "the decode worker could not be started", detail: error.message)
        }
        record(nil, change: 1)
        let waited = process.startup == nil
        let bytes = request.encoded
        let ending = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DecodeWorkerEnding, Never>) in
                // The exchange blocks in read and wait: a thread of its own, apart from the
                // event loops, the cooperative pool and the decoding threads.
                Thread { continuation.resume(returning: process.exchange(bytes, maxAnswerBytes: maxAnswerBytes)) }.start()
            }
        } onCancel: {
            process.kill()
        }
        if waited, let startup = process.startup { metrics.recordDecodeWorkerStartup(startup, waited: true) }
        switch ending {
        case .answered(let fields):
            let answer: DecodeWorkerAnswer
            do throws(ImageError) {
                answer = try DecodeWorkerAnswer(fields: fields, options: request.options, pixels: process.pixels, pixelBytes: pixelBytes)
            } catch {
                record("failed", change: -1)
                throw ImageServerError(.internalServerError, "the decode worker failed", detail: error.message)
            }
            if case .failure(let error) = answer {
                record("refused", change: -1)
                throw ImageServerError(source: error)
            }
            record("decoded", change: -1)
            return answer
        case .killed:
            record("killed", change: -1)
            var error = ImageServerError(.gatewayTimeout, "the request took too long", detail: "the decode worker was killed at the deadline")
            error.allowsFallback = true
            throw error
        case .signalled(let signal):
            record("crashed", change: -1)
            var error = ImageServerError(
                .unprocessableContent, "the source could not be decoded (decode worker ended by signal \(signal))",
                detail: "decode worker \(process.pid) ended by signal \(signal)")
            error.allowsFallback = true
            throw error
        case .failed(let reason):
            record("failed", change: -1)
            throw ImageServerError(.internalServerError, "the decode worker failed", detail: reason)
        }
    }

    /// Counts a run that ended by `outcome` (none for a start), and `change` in the workers running.
    private func record(_ outcome: String?, change: Int) {
        let count = running.withLockedValue { count in
            count += change
            return count
        }
        if let outcome { metrics.recordDecodeWorker(outcome: outcome, running: count) } else { metrics.recordDecodeWorkers(running: count) }
    }

    /// The failure of an answer of another kind than asked.
    private static var unreadable: ImageServerError {
        ImageServerError(.internalServerError, "the decode worker failed", detail: "it answered another kind than asked")
    }
}
