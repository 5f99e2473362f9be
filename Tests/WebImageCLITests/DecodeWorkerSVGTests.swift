#if SVG
import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `webimage serve` with SVG sources, each read in a decode worker (the built `webimage`
/// tool's `decode-worker`): rendered at the requested size, answered in the format asked for
/// or, without `format=`, in JPEG; a render that runs past the deadline is killed, a worker
/// that a signal ends is one request's 422, and a nested document's allocation stays in the
/// worker.
@Suite("Decode workers: SVG", .serialized, .timeLimit(.minutes(10)), BuiltExecutable.webimageIsBuilt)
struct DecodeWorkerSVGTests {
    /// A 1200×600 document: red left half, blue right half.
    static let halves = Data(
        (#"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="600">"#
            + #"<rect width="600" height="600" fill="red"/><rect x="600" width="600" height="600" fill="blue"/></svg>"#).utf8
    )

    /// A document whose render takes minutes at full size: eight layers, each filtered by
    /// the most octaves of turbulence the SVG screen lets through (24), over 3000×3000
    /// pixels (one such layer of 2048×2048 took 8 s in `rsvg-convert`). Its requests ask for
    /// nearly its full size.
    static let endless = Data(
        (#"<svg xmlns="http://www.w3.org/2000/svg" width="3000" height="3000"><filter id="f">"#
            + #"<feTurbulence baseFrequency="0.01" numOctaves="24"/></filter>"#
            + String(repeating: #"<rect width="3000" height="3000" filter="url(#f)" opacity="0.5"/>"#, count: 8) + "</svg>").utf8
    )

    /// A 16×16 document whose `<image>` is a 12000×12000 SVG in a `data:` URL, which
    /// gdk-pixbuf renders at full size (576 MB of pixels) outside the coder's limits.
    static let nested = Data(
        (#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><image width="16" height="16" "#
            + #"href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='12000' height='12000'/%3E"/></svg>"#).utf8
    )

    /// A 64×64 document padded by a 4 MiB comment: a worker whose address space is already
    /// full cannot read it (its buffer needs a mapping of its own), and a signal ends it.
    static let padded = Data(
        (#"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><!--"# + String(repeating: "x", count: 4 << 20)
            + #"--><rect width="64" height="64" fill="red"/></svg>"#).utf8
    )

    /// Configures the harness's server with the built tool as its decode worker.
    static func withWorker(_ more: @escaping (inout ImageServerConfiguration) -> Void = { _ in }) throws -> (inout ImageServerConfiguration) -> Void {
        let executable = try BuiltExecutable.url(named: "webimage")
        return { configuration in
            configuration.decodeWorkerExecutable = executable
            more(&configuration)
        }
    }

    /// The decode workers this process has started that are still there (running, or ended
    /// and not reaped), from /proc.
    static func workersLeft() -> [Int32] {
        let own = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // The fields after the command's closing parenthesis: state, then the parent.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, Int32(fields[1]) == own else { return false }
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return String(decoding: command, as: UTF8.self).contains("decode-worker") || fields[0] == "Z"
        }
    }

    @Test func svgSourceIsRenderedAtTheRequestedWidth() async throws {
        try await ImageServerHarness.run(configure: try Self.withWorker()) { harness in
            harness.serve("/halves.svg", Self.halves, contentType: "image/svg+xml")
            for spec in ["resize=300|format=png", "resize=300|format=webp,lossless", "resize=300"] {
                let answer = try await harness.get(harness.path(spec, source: "/halves.svg"))
                #expect(answer.status == 200, "\(spec)")
                guard answer.status == 200 else { continue }
                let image = try answer.image()
                #expect(image.format == (spec.contains("format=") ? (spec.contains("webp") ? .webp : .png) : .jpeg), "\(spec)")
                #expect(image.pixelWidth == 300 && image.pixelHeight == 150, "\(spec): \(image.pixelSize)")
                let left = image.bitmap.rgba8(x: 10, y: 75), right = image.bitmap.rgba8(x: 290, y: 75)
                #expect(left.red >= 247 && left.green <= 8 && left.blue <= 8, "\(spec): \(left)")
                #expect(right.red <= 8 && right.green <= 8 && right.blue >= 247, "\(spec): \(right)")
            }
            let info = try await harness.get("/info/_/" + ImageServerHarness.encodeSource(harness.sources.url(for: "/halves.svg").absoluteString))
            #expect(info.status == 200)
            let json = String(decoding: info.body, as: UTF8.self)
            #expect(json.contains(#""format":"svg","width":1200,"height":600"#), "\(json)")
            #expect(try await harness.eventuallyShows(#"webimage_decode_workers_total{outcome="decoded"} 8"#))
        }
    }

    /// Four renders that would run for minutes (as many as the cores and two more) each
    /// answer 504 at the deadline, their workers killed and reaped; a plain SVG then still
    /// renders. In process, the renders kept every decoding thread, and the plain one
    /// answered 504 too.
    @Test func aRenderPastTheDeadlineIsKilled() async throws {
        // Long enough that, on a loaded machine, each request has its worker rendering when
        // the deadline comes (a shorter one answered 504 before any worker had started).
        let deadline = 20.0
        // The stated margin over the deadline, for a loaded machine: the 504 itself comes
        // from the deadline; the margin only bounds the wait for the kill.
        let margin = 60.0
        // Each worker started for its read (no pool), so that every worker left is one of theirs.
        try await ImageServerHarness.run(
            configure: try Self.withWorker {
                $0.requestTimeout = deadline
                $0.decodeWorkerPoolSize = 0
            }
        ) { harness in
            harness.serve("/endless.svg", Self.endless, contentType: "image/svg+xml")
            harness.serve("/halves.svg", Self.halves, contentType: "image/svg+xml")
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<(ProcessInfo.processInfo.activeProcessorCount + 2) {
                    group.addTask { try await harness.get(harness.path("resize=\(3000 - index)|format=png", source: "/endless.svg")).status }
                }
                for try await status in group { #expect(status == 504) }
            }
            #expect(ContinuousClock.now - start < .seconds(deadline + margin))
            #expect(await eventually(within: 120) { Self.workersLeft().isEmpty }, "\(Self.workersLeft())")
            #expect(try await harness.eventuallyShows("webimage_decode_workers_running 0"))
            #expect(try await harness.metrics().contains(#"webimage_decode_workers_total{outcome="killed"}"#))
            let answer = try await harness.get(harness.path("resize=300|format=png", source: "/halves.svg"))
            #expect(answer.status == 200)
        }
    }

    /// A worker that a signal ends while it renders (here `SIGKILL` from outside, as the
    /// kernel's out-of-memory killer would end it; a `SIGSEGV` sent from outside is caught by
    /// the sanitizer runtime of the suite's builds, which then exits with its own status)
    /// answers 422 naming the signal, and the server answers the next request.
    @Test func aWorkerEndedBySignalAnswers422() async throws {
        // Each worker started for its read (no pool), so that the one left is the render's.
        try await ImageServerHarness.run(
            configure: try Self.withWorker {
                $0.requestTimeout = 600
                $0.decodeWorkerPoolSize = 0
            }
        ) { harness in
            harness.serve("/endless.svg", Self.endless, contentType: "image/svg+xml")
            let request = Task { try await harness.get(harness.path("resize=2990|format=png", source: "/endless.svg")) }
            // The worker for the render (the header's worker has come and gone first).
            #expect(try await harness.eventuallyShows(#"webimage_decode_workers_total{outcome="decoded"} 1"#))
            #expect(await eventually(within: 300) { !Self.workersLeft().isEmpty })
            for worker in Self.workersLeft() { kill(worker, SIGKILL) }
            let answer = try await request.value
            #expect(answer.status == 422)
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect(body.contains("the source could not be decoded (decode worker ended by signal \(SIGKILL))"), "\(body)")
            #expect(try await harness.eventuallyShows(#"webimage_decode_workers_total{outcome="crashed"} 1"#))
            #expect(try await harness.get("/health").status == 200)
            #expect(await eventually(within: 120) { Self.workersLeft().isEmpty }, "\(Self.workersLeft())")
        }
    }

    /// The worker itself, run as the server runs it: with an address space of 1 MiB, the
    /// padded source ends it by a signal; with one CPU second, the endless render ends it
    /// by `SIGXCPU`.
    @Test func theWorkerPastItsLimitsEndsBySignal() async throws {
        // Under a sanitizer the worker maps no address-space limit (see DecodeWorker).
        let cases = [(Self.padded, 1 << 20, 60, nil), (Self.endless, 4 << 30, 1, SIGXCPU)].filter {
            DecodeWorker.appliesAddressSpaceLimit || $0.3 != nil
        }
        for (source, addressSpace, cpuSeconds, signal) in cases {
            let process = Process()
            process.executableURL = try BuiltExecutable.url(named: "webimage")
            process.arguments = ["decode-worker", "--address-space", String(addressSpace), "--cpu-seconds", String(cpuSeconds)]
            // The environment the server gives its workers, and nothing else.
            process.environment = Dictionary(
                uniqueKeysWithValues: DecodeWorkers.environment.map { ($0.prefix { $0 != "=" }.description, $0.drop { $0 != "=" }.dropFirst().description) })
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            var options = ImageDecodeOptions()
            options.maxPixelCount = 50_000_000
            // A worker that dies while it reads breaks the pipe: its end is what is checked.
            let request = DecodeWorkerRequest(kind: .decode, options: options, data: source, addressSpace: addressSpace)
            try? input.fileHandleForWriting.write(contentsOf: request.encoded)
            try? input.fileHandleForWriting.close()
            let answer = try output.fileHandleForReading.readToEnd() ?? Data()
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "status \(process.terminationStatus), \(answer.count) bytes answered")
            if let signal { #expect(process.terminationStatus == signal) }
        }
    }

    /// The workers started ahead wait with no descriptor but their socket (standard input
    /// and output), the server's standard error and their pixel file; killed while they
    /// wait, they are found ended when a read comes, reaped and replaced, and the read
    /// still answers; the next read takes one that waited.
    @Test func aWaitingWorkerKilledIsReplaced() async throws {
        try await ImageServerHarness.run(configure: try Self.withWorker { $0.decodeWorkerPoolSize = 2 }) { harness in
            harness.serve("/halves.svg", Self.halves, contentType: "image/svg+xml")
            #expect(try await harness.eventuallyShows(#"webimage_decode_worker_pool_total{event="started"} 2"#))
            let waiting = Self.workersLeft()
            #expect(waiting.count == 2, "\(waiting)")
            for worker in waiting {
                // Its socket (standard input and output), the server's standard error, its
                // pixel file, and only what it opened itself (the runtime's event files).
                let folder = "/proc/\(worker)/fd"
                let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                let targets = Dictionary(
                    uniqueKeysWithValues: descriptors.compactMap { name in
                        Int32(name).map { ($0, (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name)) ?? "") }
                    })
                #expect(targets[0]?.hasPrefix("socket:") == true && targets[0] == targets[1], "worker \(worker): \(targets)")
                #expect(targets[3]?.contains("memfd:webimage-decode-worker-pixels") == true, "worker \(worker): \(targets)")
                #expect(targets.filter { $0.key > 3 }.allSatisfy { $0.value.hasPrefix("anon_inode:") }, "worker \(worker): \(targets)")
                kill(worker, SIGKILL)
            }
            // Ended (their sockets closed), not yet reaped: the server finds them so.
            #expect(await eventually(within: 120) { waiting.allSatisfy { Self.state(of: $0) == "Z" } })
            let answer = try await harness.get(harness.path("resize=300|format=png", source: "/halves.svg"))
            #expect(answer.status == 200)
            #expect(try await harness.eventuallyShows(#"webimage_decode_worker_pool_total{event="lost"} 2"#))
            // Replaced: two wait again, none of them the killed ones.
            #expect(await eventually(within: 120) { Set(Self.workersLeft()).count == 2 && Set(Self.workersLeft()).isDisjoint(with: waiting) })
            let next = try await harness.get(harness.path("resize=200|format=png", source: "/halves.svg"))
            #expect(next.status == 200)
            #expect(try await harness.metrics().contains(#"webimage_decode_worker_pool_total{event="taken"}"#))
            #expect(try await harness.metrics().contains(#"webimage_decode_worker_startup_seconds_count{waited="no"}"#))
        }
    }

    /// A document nesting a 12000×12000 SVG in a `data:` URL is rendered (or stopped) in the
    /// worker: this process, which runs the server, does not grow by hundreds of MB.
    @Test func aNestedDocumentsAllocationStaysInTheWorker() async throws {
        try await ImageServerHarness.run(configure: try Self.withWorker()) { harness in
            harness.serve("/nested.svg", Self.nested, contentType: "image/svg+xml")
            // Resets this process's peak resident size (VmHWM) to its current one.
            try Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
            let before = try Self.residentKiB("VmRSS")
            let answer = try await harness.get(harness.path("resize=16|format=png", source: "/nested.svg"))
            #expect(answer.status == 200 || answer.status == 422, "\(answer.status)")
            let peak = try Self.residentKiB("VmHWM")
            #expect(peak - before < 200 << 10, "peak \(peak) KiB against \(before) KiB before")
        }
    }

    /// The state letter of process `pid` (`R`, `S`, `Z`…), from /proc.
    static func state(of pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return nil
        }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    /// A field of /proc/self/status, in KiB.
    static func residentKiB(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
#endif
