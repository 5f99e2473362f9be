import CXattr
import Foundation
import Glibc

/// The few POSIX calls the disk cache makes, wrapped so that every failure is an
/// `ImageError` or a plain `nil`.
///
/// The cache talks to the file system through descriptors and paths rather than
/// `FileManager`: one `open`/`fstat`/`read` per hit, one `readdir` pass per scan.
enum FileSystem {
    /// One regular file found by ``scan(directory:)``.
    struct Entry {
        var name: String
        var size: Int
        var accessDate: Double
        var modificationDate: Double
    }

    /// The contents of `path`, or `nil` when it cannot be read. With `touchingAccessDate`
    /// the file's access date becomes now (the file system may not do it: `relatime`).
    static func read(path: String, touchingAccessDate: Bool) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(status.st_size)
        guard size > 0, let buffer = malloc(size) else { return size == 0 ? Data() : nil }
        var offset = 0
        while offset < size {
            let count = Glibc.read(descriptor, buffer + offset, size - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                free(buffer)
                return nil
            }
            offset += count
        }
        if touchingAccessDate {
            var times = [timespec(tv_sec: 0, tv_nsec: utimeNow), timespec(tv_sec: 0, tv_nsec: utimeOmit)]
            _ = futimens(descriptor, &times)
        }
        return Data(bytesNoCopy: buffer, count: size, deallocator: .free)
    }

    /// Writes `data` to a new file at `path` (which must not exist), with the extended
    /// attribute `attribute` when given.
    ///
    /// - Returns: whether the attribute was stored (`false` when the file system refuses
    ///   extended attributes, or when there was none to store).
    static func createFile(
        at path: String,
        contents data: Data,
        attribute: (name: String, value: [UInt8])?
    ) throws(ImageError) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw error("cannot create \(path)") }
        var failure: ImageError?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    failure = error("cannot write \(path)")
                    return
                }
                offset += count
            }
        }
        var storedAttribute = false
        if failure == nil, let attribute {
            storedAttribute = attribute.value.withUnsafeBytes { value in
                fsetxattr(descriptor, attribute.name, value.baseAddress, value.count, 0) == 0
            }
        }
        close(descriptor)
        if let failure {
            unlink(path)
            throw failure
        }
        return storedAttribute
    }

    /// The value of the extended attribute `name` of the file at `path`.
    static func attribute(_ name: String, atPath path: String) -> [UInt8]? {
        let size = getxattr(path, name, nil, 0)
        guard size > 0 else { return nil }
        var value = [UInt8](repeating: 0, count: size)
        let read = value.withUnsafeMutableBytes { getxattr(path, name, $0.baseAddress, size) }
        guard read >= 0 else { return nil }
        return Array(value.prefix(read))
    }

    /// Sets (or, with `nil`, removes) the extended attribute `name` of the file at `path`.
    /// - Returns: whether the file system accepted it.
    static func setAttribute(_ name: String, to value: [UInt8]?, atPath path: String) -> Bool {
        guard let value else { return removexattr(path, name) == 0 || errno == ENODATA }
        return value.withUnsafeBytes { setxattr(path, name, $0.baseAddress, $0.count, 0) == 0 }
    }

    /// Moves `source` over `destination` in one step: readers see the old file or the new one.
    static func rename(_ source: String, to destination: String) throws(ImageError) {
        guard Glibc.rename(source, destination) == 0 else {
            let failure = error("cannot move \(source) to \(destination)")
            unlink(source)
            throw failure
        }
    }

    /// The size of the regular file at `path`, or `nil` when there is none.
    static func fileSize(atPath path: String) -> Int? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Removes the file at `path`; a missing file is not an error.
    ///
    /// - Returns: Why the file could not be removed, or `nil`.
    @discardableResult
    static func removeFile(atPath path: String) -> ImageError? {
        guard unlink(path) != 0, errno != ENOENT else { return nil }
        return error("cannot remove \(path)")
    }

    /// Creates the folder at `path` and its parents; the error gives the system's reason.
    static func createDirectory(atPath path: String) throws(ImageError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            guard mkdir(prefix, 0o755) == 0 || errno == EEXIST else {
                throw error("cannot create the folder \(path)")
            }
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw ImageError(.fileSystem, "cannot create the folder \(path): \(String(cString: strerror(ENOTDIR)))")
        }
    }

    /// The regular files directly in `directory`, hidden ones apart.
    static func scan(directory: String) -> (visible: [Entry], hidden: [Entry]) {
        guard let stream = opendir(directory) else { return ([], []) }
        defer { closedir(stream) }
        let directoryDescriptor = dirfd(stream)
        var visible: [Entry] = []
        var hidden: [Entry] = []
        while let record = readdir(stream) {
            let name = withUnsafePointer(to: &record.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            var status = stat()
            guard fstatat(directoryDescriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0,
                status.st_mode & S_IFMT == S_IFREG
            else { continue }
            let entry = Entry(
                name: name,
                size: Int(status.st_size),
                accessDate: seconds(status.st_atim),
                modificationDate: seconds(status.st_mtim)
            )
            if name.hasPrefix(".") { hidden.append(entry) } else { visible.append(entry) }
        }
        return (visible, hidden)
    }

    /// An error for the last failed call, naming what was attempted and why it failed.
    static func error(_ action: String) -> ImageError {
        ImageError(.fileSystem, "\(action): \(String(cString: strerror(errno)))")
    }

    /// A random name for a temporary file, hidden so scans and lookups skip it.
    static func temporaryName() -> String {
        ".tmp-" + String(UInt64.random(in: .min ... .max), radix: 16)
    }

    private static func seconds(_ time: timespec) -> Double {
        Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `UTIME_NOW` and `UTIME_OMIT` from `<sys/stat.h>`, which Swift does not import.
    private static let utimeNow = (1 << 30) - 1
    private static let utimeOmit = (1 << 30) - 2
}
