import CSpawn
import Foundation
import Glibc
import WebImage

/// The shared memory file (`memfd_create`) a decode worker writes its decoded pixels in,
/// so that they never cross its socket: the server makes it when it spawns the worker, and
/// the worker has it as descriptor ``workerDescriptor``.
///
/// Before the server sends its request, it sizes the file to the read's plan and seals it
/// (`F_SEAL_GROW`, `F_SEAL_SHRINK`, `F_SEAL_SEAL`): the worker, which the source may have
/// taken over, can write no more bytes than the plan into it, and those bytes are the
/// server's memory (the file's pages), not the worker's address space. The worker writes
/// each frame's pixels in turn, from offset 0; the server reads each frame with one
/// `pread` into the image's bitmap, after checking the answer's sizes against the plan.
/// A Swift array cannot be backed by a mapping of the file, so that read is the one copy
/// left.
struct DecodeWorkerPixelFile: Sendable {
    /// The descriptor the worker has the file as: the first after its standard input,
    /// output and error.
    static let workerDescriptor: Int32 = 3

    /// The server's descriptor of the file.
    let descriptor: Int32

    /// A new file, empty and not sealed, closed on exec (the worker's copy is the
    /// descriptor its spawn duplicates).
    ///
    /// - Throws: `ImageError` `.badImageData` naming the call that failed.
    static func make() throws(ImageError) -> DecodeWorkerPixelFile {
        let descriptor = memfd_create("webimage-decode-worker-pixels", cspawn_mfd_cloexec | cspawn_mfd_allow_sealing)
        guard descriptor >= 0 else { throw ImageError(.badImageData, "the decode worker's pixel file could not be made (errno \(errno))") }
        return DecodeWorkerPixelFile(descriptor: descriptor)
    }

    /// Sizes the file to `bytes` and seals its size: no one, the worker included, may grow
    /// or shrink it after, nor unseal it.
    ///
    /// - Throws: `ImageError` `.badImageData` naming the call that failed.
    func seal(bytes: Int) throws(ImageError) {
        guard ftruncate(descriptor, off_t(bytes)) == 0,
            fcntl(descriptor, cspawn_f_add_seals, cspawn_f_seal_grow | cspawn_f_seal_shrink | cspawn_f_seal_seal) == 0
        else { throw ImageError(.badImageData, "the decode worker's pixel file could not be sealed at \(bytes) bytes (errno \(errno))") }
    }

    /// The `count` bytes at `offset`, read with one `pread` (or as few as the kernel
    /// takes) into a new array.
    ///
    /// - Throws: `ImageError` `.imageTooLarge` for a count no memory holds, `.badImageData`
    ///   when the file ends first.
    func read(count: Int, at offset: Int) throws(ImageError) -> [UInt8] {
        try [UInt8](unsafeUninitializedImageSized: count) { (buffer, initialized) throws(ImageError) in
            while initialized < count {
                let read = pread(descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if read < 0, errno == EINTR { continue }
                guard read > 0 else { throw ImageError(.badImageData, "the decode worker's pixel file ends too soon") }
                initialized += read
            }
        }
    }

    /// Closes the server's descriptor.
    func close() {
        _ = Glibc.close(descriptor)
    }

    /// Writes the pixels of `frames` in turn from offset 0 into the worker's file; whether
    /// they fit (the file is sealed at the read's plan, so a larger image fails here).
    static func write(_ frames: [ImageFrame]) -> Bool {
        var offset = 0
        for frame in frames {
            let written = frame.bitmap.pixels.withUnsafeBytes { buffer in
                var done = 0
                while done < buffer.count {
                    let moved = pwrite(workerDescriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                    if moved < 0, errno == EINTR { continue }
                    guard moved > 0 else { return false }
                    done += moved
                }
                return true
            }
            guard written else { return false }
            offset += frame.bitmap.pixels.count
        }
        return true
    }
}
