import CGIF
import WebImageCore

/// The bytes giflib reads through its input callback: a window on the caller's buffer
/// and a read position that never passes its end.
final class GIFByteSource {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Copies up to `count` bytes to `destination`; returns how many were copied
    /// (fewer, or 0, at the end of the data).
    func read(into destination: UnsafeMutablePointer<GifByteType>, count: Int) -> Int {
        let available = min(max(count, 0), bytes.count - offset)
        guard available > 0, let base = bytes.baseAddress else { return 0 }
        UnsafeMutableRawPointer(destination).copyMemory(from: base + offset, byteCount: available)
        offset += available
        return available
    }

    /// The callback giflib calls for input; the source travels in the file's `UserData`.
    static let inputFunction: InputFunc = { file, destination, count in
        guard let file, let destination, let context = file.pointee.UserData else { return 0 }
        let source = Unmanaged<GIFByteSource>.fromOpaque(context).takeUnretainedValue()
        return Int32(source.read(into: destination, count: Int(count)))
    }
}
