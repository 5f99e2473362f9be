import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Write failures of the disk cache: reported as events by the library and as a warning
/// and exit codes by the tool.
///
/// The tests run as root, whom permission bits do not stop, so they make folders that
/// refuse writes in two other ways: a cache folder whose parent is a regular file (no
/// folder can be created there, on any file system), and a folder marked immutable (as
/// `chattr +i` does; it stops root too, and those tests are skipped where the file system
/// does not take the flag, such as tmpfs).
@Suite("Cache write failures", .serialized)
struct CacheWriteFailureTests {
    @Test func aFailedStoreIsReportedWithItsKeyAndReason() throws {
        let scratch = TemporaryDirectory(prefix: "cache-write-failure")
        let blocker = scratch.appending("not-a-folder")
        try Data("file".utf8).write(to: blocker)
        let cache = DiskCache(directory: blocker.appendingPathComponent("cache"))
        let failures = NIOLockedValueBox<[DiskCacheWriteFailure]>([])
        cache.writeFailureHandler = { failure in failures.withLockedValue { $0.append(failure) } }

        #expect(throws: ImageError.self) { try cache.store(Data("bytes".utf8), forKey: "a") }
        #expect(throws: ImageError.self) { try cache.store(Data("bytes".utf8), forKey: "b") }
        let reported = failures.withLockedValue { $0 }
        #expect(reported.map(\.operation) == [.store(key: "a"), .store(key: "b")])
        #expect(reported.allSatisfy { $0.error.code == .fileSystem && $0.error.message.contains("Not a directory") })
        #expect(reported.first?.directory == cache.directory)
    }

    @Test(.enabled(if: Immutable.isSupported, "needs the immutable flag on the temporary folder"))
    func clearingAndCleaningAnImmutableFolderAreReported() throws {
        let scratch = TemporaryDirectory(prefix: "cache-write-failure")
        let folder = scratch.appending("cache")
        let cache = DiskCache(directory: folder, maxAge: 0)
        try cache.store(Data("bytes".utf8), forKey: "a")
        cache.waitForMaintenance()
        let failures = NIOLockedValueBox<[DiskCacheWriteFailure]>([])
        cache.writeFailureHandler = { failure in failures.withLockedValue { $0.append(failure) } }
        try Immutable.mark(folder)
        defer { Immutable.unmark(folder) }

        cache.removeAll()
        cache.removeExpiredData()
        #expect(throws: ImageError.self) { try cache.store(Data("more".utf8), forKey: "b") }
        let reported = failures.withLockedValue { $0 }
        #expect(reported.map(\.operation) == [.removal, .removal, .store(key: "b")])
        #expect(reported.allSatisfy { $0.error.message.contains("Operation not permitted") })
        #expect(cache.totalCount() == 1)
    }

    @Test func theToolWarnsOncePerFolderAndStillLoads() async throws {
        try await CLIImageServer.run { server, scratch in
            let blocker = scratch.appending("not-a-folder")
            try Data("file".utf8).write(to: blocker)
            let output = try await CommandLineTool.run(
                ["fetch", "--json", "--cache-dir", blocker.appendingPathComponent("cache").path, server.url("/a.png"), server.url("/b.jpg")],
                scratch: scratch.url
            )
            #expect(output.status == 0)
            #expect(try output.jsonLines().map { $0["ok"] as? Bool } == [true, true])
            let warnings = output.standardError.split(separator: "\n").filter { $0.contains("warning: cannot write to the cache folder") }
            #expect(warnings.count == 1, "\(output.standardError)")
            #expect(warnings.first?.contains("Not a directory") == true)
        }
    }

    @Test(.enabled(if: Immutable.isSupported, "needs the immutable flag on the temporary folder"))
    func clearAndCleanExitOneWithTheReasonWhenTheyCannotRemove() async throws {
        try await CLIImageServer.run { server, scratch in
            let cache = scratch.appending("cache")
            let filled = try await CommandLineTool.run(["fetch", "--cache-dir", cache.path, server.url("/a.png")], scratch: scratch.url)
            #expect(filled.status == 0)
            let folder = cache.appendingPathComponent("default")
            try Immutable.mark(folder)
            defer { Immutable.unmark(folder) }

            for arguments in [["clear"], ["clean", "--max-age", "0"]] {
                let output = try await CommandLineTool.run(["cache"] + arguments + ["--cache-dir", cache.path], scratch: scratch.url)
                #expect(output.status == 1, "\(arguments)")
                #expect(output.standardError.contains("cannot remove the entries of \(folder.path)"), "\(output.standardError)")
                #expect(output.standardError.contains("Operation not permitted"))
            }
            Immutable.unmark(folder)
            let cleared = try await CommandLineTool.run(["cache", "clear", "--cache-dir", cache.path], scratch: scratch.url)
            #expect(cleared.status == 0)
        }
    }
}

/// The immutable flag (what `chattr +i` sets): a folder no one, root included, can add to,
/// remove from or rename. Set with the `FS_IOC_SETFLAGS` ioctl, as `chattr` does, so no
/// child process is waited for.
enum Immutable {
    /// Whether the temporary folder's file system takes the flag.
    static let isSupported: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("immutable-probe-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)) != nil else { return false }
        defer {
            unmark(probe)
            try? FileManager.default.removeItem(at: probe)
        }
        return (try? mark(probe)) != nil
    }()

    /// Marks `folder` immutable.
    static func mark(_ folder: URL) throws {
        guard setFlag(on: folder, to: true) else { throw MarkFailed() }
    }

    /// Clears the mark, so the folder can be removed.
    static func unmark(_ folder: URL) {
        _ = setFlag(on: folder, to: false)
    }

    struct MarkFailed: Error {}

    // <linux/fs.h>: _IOR('f', 1, long), _IOW('f', 2, long) and FS_IMMUTABLE_FL (the same
    // numbers on x86-64 and arm64); the kernel reads and writes an int.
    private static let getFlags: UInt = 0x8008_6601
    private static let setFlags: UInt = 0x4008_6602
    private static let immutableFlag: CInt = 0x10

    private static func setFlag(on folder: URL, to immutable: Bool) -> Bool {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var flags: CInt = 0
        guard ioctl(descriptor, getFlags, &flags) == 0 else { return false }
        flags = immutable ? flags | immutableFlag : flags & ~immutableFlag
        return ioctl(descriptor, setFlags, &flags) == 0
    }
}
