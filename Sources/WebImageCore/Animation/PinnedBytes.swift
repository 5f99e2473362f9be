import Foundation

/// Encoded bytes copied once into memory that never moves while this object lives, for
/// frame decoders that keep pointers into the file from one call to the next (giflib's
/// reader, libwebp's demuxer).
///
/// ``data`` shares the same memory rather than copying it, so an ``AnimatedImage`` holds
/// its file once however many views of it exist.
public final class PinnedBytes: @unchecked Sendable {
    // Immutable after `init`: the memory is written once, then only read.
    private let storage: UnsafeMutableRawBufferPointer

    /// Copies `data` into pinned memory, then lets `edit` change the copy (a coder mends a
    /// partial file's header there) before anything reads it.
    public init(_ data: Data, edit: (UnsafeMutableRawBufferPointer) -> Void = { _ in }) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        data.copyBytes(to: storage.bindMemory(to: UInt8.self), count: data.count)
        count = data.count
        edit(UnsafeMutableRawBufferPointer(rebasing: storage[0..<count]))
    }

    deinit {
        storage.deallocate()
    }

    /// The number of bytes.
    public let count: Int

    /// The bytes, valid for as long as this object lives.
    public var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<count])
    }

    /// The bytes as `Data` that shares this memory and keeps this object alive.
    public var data: Data {
        guard count > 0, let base = storage.baseAddress else { return Data() }
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { _, _ in withExtendedLifetime(self) {} })
    }
}
