import Foundation
import Glibc
import WebImage

/// The decode worker, the process the server decodes a source in when its format decodes
/// in workers (SVG always; see ``ImageServerConfiguration/decodeWorkerFormats``): the
/// `webimage` tool's hidden `decode-worker` subcommand runs it, once per decode; the server
/// starts some ahead of their reads (`DecodeWorkerPool`).
///
/// It applies its limits first — the most address space any read may have (`RLIMIT_AS`),
/// its CPU seconds (`RLIMIT_CPU`, `SIGXCPU` past them and `SIGKILL` a second later) and no
/// core dump — and says it is ready (`readyByte`). Its request then comes on its standard
/// input: first the address space of that read (sized to its plan), to which it lowers
/// both its soft and its hard limit before it reads the source, so that nothing the source
/// does can raise it again; then the request itself. It reads the source with the default coders
/// (`ImageCodersManager.shared`, the SVG coder included) and writes one answer on its
/// standard output: the decoded image (its pixels written in the shared memory file the
/// server gave it, `DecodeWorkerPixelFile`, and only its description on the output), the
/// header's size and frames, the `/info` JSON, or the typed `ImageError` that stopped it. A source that takes more memory or CPU than allowed, or that crashes a
/// library, ends the worker by a signal, which the server answers 422.
///
/// A build under ThreadSanitizer or AddressSanitizer maps terabytes of shadow memory at
/// start, which no address-space limit admits: such a worker applies no `RLIMIT_AS`
/// (``appliesAddressSpaceLimit``), and is bounded by its CPU limit and the kill at the
/// deadline alone.
public enum DecodeWorker {
    /// Whether a worker applies its address-space limit: always, but in a build whose
    /// sanitizer runtime (ThreadSanitizer's or AddressSanitizer's) is loaded.
    public static let appliesAddressSpaceLimit: Bool = {
        let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        return dlsym(everywhere, "__tsan_init") == nil && dlsym(everywhere, "__asan_init") == nil
    }()

    /// The byte a worker writes on its standard output once its limits are applied.
    static let readyByte: UInt8 = 0x52

    /// Applies the limits, answers one request and returns the process's exit status: 0
    /// once an answer is written, 1 when the limits cannot be applied or the request cannot
    /// be read or answered.
    ///
    /// - Parameters:
    ///   - addressSpace: The most bytes of address space the process may map, for any
    ///     read; its request lowers it to its own.
    ///   - cpuSeconds: The most seconds of CPU time the process may use.
    public static func run(addressSpace: Int, cpuSeconds: Int) -> Int32 {
        guard limit(RLIMIT_CORE, to: 0), limit(RLIMIT_CPU, to: cpuSeconds, hard: cpuSeconds + 1),
            !appliesAddressSpaceLimit || limit(RLIMIT_AS, to: addressSpace),
            writeAll(Data([readyByte]))
        else { return 1 }
        guard let word = readExactly(8) else { return 1 }
        var wire = DecodeWorkerWire(reading: word)
        guard let requested = try? wire.readInt(in: 0...Int.max),
            !appliesAddressSpaceLimit || limit(RLIMIT_AS, to: min(requested, addressSpace))
        else { return 1 }
        guard let fields = readMessage() else { return 1 }
        var reply = answer(to: fields)
        if case .image(let image) = reply, !DecodeWorkerPixelFile.write(image.frames) {
            reply = .failure(ImageError(.imageTooLarge, "the decoded image is larger than its planned memory"))
        }
        return writeAll(reply.encoded) ? 0 : 1
    }

    /// The answer to the request in `fields`.
    static func answer(to fields: Data) -> DecodeWorkerAnswer {
        do throws(ImageError) {
            let request = try DecodeWorkerRequest(fields: fields)
            let coders = ImageCodersManager.shared
            var options = request.options
            switch request.kind {
            case .header:
                let size = try coders.checkHeader(of: request.data, options: options)
                options.decodesFramesOnDemand = true
                let frames = (try? coders.animatedImage(from: request.data, options: options).frameCount) ?? 1
                return .header(size, frames: frames)
            case .decode:
                options.decodesFramesOnDemand = false
                return .image(try coders.decode(request.data, options: options))
            case .info:
                return .info(try ImageInfoResponse(data: request.data, coders: coders, options: options).json)
            }
        } catch {
            return .failure(error)
        }
    }

    /// Sets `resource`'s soft limit to `soft` and its hard limit to `hard` (`soft` when not
    /// given); whether it could.
    private static func limit(_ resource: __rlimit_resource, to soft: Int, hard: Int? = nil) -> Bool {
        var value = rlimit(rlim_cur: rlim_t(max(0, soft)), rlim_max: rlim_t(max(0, hard ?? soft)))
        return setrlimit(Int32(resource.rawValue), &value) == 0
    }

    /// The fields of the one message on standard input, read whole: its 8-byte length, then
    /// that many bytes; `nil` when the input ends first.
    private static func readMessage() -> Data? {
        guard let length = readExactly(8) else { return nil }
        var wire = DecodeWorkerWire(reading: length)
        guard let count = try? wire.readInt(in: 0...Int(Int32.max)) else { return nil }
        return readExactly(count)
    }

    /// `count` bytes of standard input, or `nil` when it ends first.
    private static func readExactly(_ count: Int) -> Data? {
        var data = Data(count: count)
        var done = 0
        while done < count {
            let read = data.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress! + done, count - done) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { return nil }
            done += read
        }
        return data
    }

    /// Writes `data` whole on standard output; whether it could.
    private static func writeAll(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + done, buffer.count - done)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                done += written
            }
            return true
        }
    }
}
