#if TIFF
// Compiled only with the `TIFF` package trait, so that a build without it never
// imports CTIFF and needs no libtiff headers.
import CTIFF
import Foundation

/// The bytes libtiff reads from or writes to through `TIFFClientOpenExt`, with the
/// message of the last error libtiff reported about them.
///
/// A stream is used by one libtiff handle on one thread; the C callbacks find it through
/// the handle's client data.
final class TIFFMemoryStream {
    /// The bytes read from, when reading.
    private let source: UnsafeRawBufferPointer?
    /// The bytes written so far, when writing.
    private(set) var written: [UInt8] = []
    /// The current read or write position.
    private var position = 0
    /// The room for libtiff's last error message, NUL included.
    private static let messageCapacity = 512
    /// libtiff's last error message, NUL-terminated.
    private let message = UnsafeMutablePointer<CChar>.allocate(capacity: TIFFMemoryStream.messageCapacity)

    /// A stream that reads `bytes`, which must outlive it.
    init(reading bytes: UnsafeRawBufferPointer) {
        source = bytes
        message.initialize(repeating: 0, count: TIFFMemoryStream.messageCapacity)
    }

    /// A stream that collects what libtiff writes.
    init() {
        source = nil
        message.initialize(repeating: 0, count: TIFFMemoryStream.messageCapacity)
    }

    deinit {
        message.deallocate()
    }

    /// Forgets the last error, so that ``reportedError`` tells whether the next calls
    /// reported one.
    func clearError() {
        message.pointee = 0
    }

    /// Whether libtiff reported an error since the stream was opened or last cleared.
    var reportedError: Bool { message.pointee != 0 }

    /// The last error libtiff reported, or `fallback` when it reported none.
    func lastError(or fallback: String) -> String {
        message.pointee == 0 ? fallback : String(cString: message)
    }

    /// Opens a libtiff handle on this stream in `mode` ("r" or "w"), with no single
    /// allocation larger than `maxAllocation`. Errors are written into ``message`` and
    /// warnings dropped: the handlers return 1, which tells libtiff they were handled, so
    /// it prints nothing.
    func open(mode: String, maxAllocation: Int) -> OpaquePointer? {
        guard let options = TIFFOpenOptionsAlloc() else { return nil }
        defer { TIFFOpenOptionsFree(options) }
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(maxAllocation))
        TIFFOpenOptionsSetErrorHandlerExtR(
            options,
            { _, buffer, _, format, arguments in
                if let buffer, let format, let arguments {
                    _ = vsnprintf(buffer.assumingMemoryBound(to: CChar.self), TIFFMemoryStream.messageCapacity, format, arguments)
                }
                return 1
            }, UnsafeMutableRawPointer(message))
        TIFFOpenOptionsSetWarningHandlerExtR(options, { _, _, _, _, _ in 1 }, nil)
        let client = Unmanaged.passUnretained(self).toOpaque()
        return TIFFClientOpenExt(
            "memory", mode, client,
            { client, buffer, count in TIFFMemoryStream.from(client).read(into: buffer, count: count) },
            { client, buffer, count in TIFFMemoryStream.from(client).write(from: buffer, count: count) },
            { client, offset, whence in TIFFMemoryStream.from(client).seek(to: offset, whence: whence) },
            { _ in 0 },
            { client in toff_t(TIFFMemoryStream.from(client).count) },
            { client, base, size in TIFFMemoryStream.from(client).map(base: base, size: size) },
            { _, _, _ in },
            options
        )
    }

    private static func from(_ client: thandle_t?) -> TIFFMemoryStream {
        Unmanaged<TIFFMemoryStream>.fromOpaque(UnsafeRawPointer(client!)).takeUnretainedValue()
    }

    private var count: Int { source?.count ?? written.count }

    private func read(into buffer: UnsafeMutableRawPointer?, count requested: tmsize_t) -> tmsize_t {
        guard let buffer, requested > 0, position < count else { return 0 }
        let length = min(Int(requested), count - position)
        if let source {
            buffer.copyMemory(from: source.baseAddress! + position, byteCount: length)
        } else {
            written.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + position, byteCount: length) }
        }
        position += length
        return tmsize_t(length)
    }

    private func write(from buffer: UnsafeMutableRawPointer?, count requested: tmsize_t) -> tmsize_t {
        guard source == nil, let buffer, requested >= 0 else { return -1 }
        let length = Int(requested)
        let end = position + length
        if end > written.count {
            written.append(contentsOf: repeatElement(0, count: end - written.count))
        }
        written.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: position).copyMemory(from: buffer, byteCount: length) }
        position = end
        return requested
    }

    private func seek(to offset: toff_t, whence: Int32) -> toff_t {
        let base =
            switch whence {
            case SEEK_CUR: position
            case SEEK_END: count
            default: 0
            }
        let (target, overflow) = base.addingReportingOverflow(Int(truncatingIfNeeded: offset))
        guard !overflow, target >= 0, target <= Int(Int32.max) * 64 else { return toff_t.max }
        position = target
        return toff_t(target)
    }

    private func map(base: UnsafeMutablePointer<tdata_t?>?, size: UnsafeMutablePointer<toff_t>?) -> Int32 {
        guard let source, let address = source.baseAddress, let base, let size else { return 0 }
        base.pointee = UnsafeMutableRawPointer(mutating: address)
        size.pointee = toff_t(source.count)
        return 1
    }
}
#endif
