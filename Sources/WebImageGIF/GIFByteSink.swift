import CGIF
import WebImageCore

/// The growing buffer giflib writes into through its output callback.
final class GIFByteSink {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// The callback giflib calls for output; the sink travels in the file's `UserData`.
    static let outputFunction: OutputFunc = { file, source, count in
        guard let file, let source, count > 0, let context = file.pointee.UserData else { return 0 }
        let sink = Unmanaged<GIFByteSink>.fromOpaque(context).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: source, count: Int(count)))
        return count
    }
}
