import Glibc

/// The size of a cache folder as every process writing it counts it: a number kept in a
/// hidden file of the folder (`.size`) and changed under an exclusive `flock`, so that
/// the size limit holds when several processes fill one folder.
///
/// Each process adds what it stores and removes; a trim resets the number from what it
/// measured. A writer killed between its rename and its update leaves the number short
/// by one entry until the next trim measures the folder. The file is opened for each
/// change, so a folder swapped out by ``DiskCache/removeAll()`` takes its number with it
/// and the new folder starts from zero.
///
/// Trims take turns: each holds a second lock (`.trim`) from the number it reads before
/// its scan to the number it writes after, so that no trim takes another's reset for a
/// change made during its own scan (two overlapping trims each subtracting the other's
/// removals used to leave the number far below the folder, which then grew past its limit).
struct DiskCacheSharedSize: Sendable {
    /// The file holding the number.
    let path: String
    /// The file whose lock a trim holds.
    let trimLockPath: String

    init(directory: String) {
        path = directory + "/.size"
        trimLockPath = directory + "/.trim"
    }

    /// Runs `body` holding the folder's trim lock, waiting for another process's trim to
    /// end first; runs it without the lock when the lock file cannot be used (a read-only folder).
    func whileTrimming<Result>(_ body: () -> Result) -> Result {
        let descriptor = open(trimLockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return body() }
        // Closing the file releases the lock.
        defer { close(descriptor) }
        var locked = flock(descriptor, LOCK_EX)
        while locked != 0 && errno == EINTR { locked = flock(descriptor, LOCK_EX) }
        return body()
    }

    /// The number now; `nil` when the file cannot be used.
    func read() -> Int? {
        update { $0 }
    }

    /// Adds `change` (negative for removals) and returns the new number.
    func add(_ change: Int) -> Int? {
        update { $0 + change }
    }

    /// Replaces the number by `transform` of it, under the lock; returns the new number,
    /// or `nil` when the file cannot be opened, locked or written (a read-only folder).
    func update(_ transform: (Int) -> Int) -> Int? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        // Closing the file releases the lock.
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { return nil }
        var stored: Int64 = 0
        let current = pread(descriptor, &stored, 8, 0) == 8 ? Int(Int64(littleEndian: stored)) : 0
        let updated = max(0, transform(current))
        var encoded = Int64(updated).littleEndian
        guard pwrite(descriptor, &encoded, 8, 0) == 8 else { return nil }
        return updated
    }
}
