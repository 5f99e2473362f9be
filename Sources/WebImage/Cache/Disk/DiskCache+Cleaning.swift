import Foundation

extension DiskCache {
    /// Cleans the folder as SDWebImage does, now: deletes the entries older than ``maxAge``,
    /// then, if the rest passes ``maxSize``, the oldest until the folder is under half of
    /// ``maxSize``. Blocks until done (it runs on the cache's maintenance queue, after any
    /// trim already queued).
    public func removeExpiredData() {
        maintenanceQueue.sync { clean(removingExpired: true) }
    }

    /// Cleans the folder as ``removeExpiredData()`` does, in the background on the cache's
    /// maintenance queue (lookups and stores go on meanwhile), then calls `completion` there.
    public func removeExpiredData(completion: @escaping @Sendable () -> Void) {
        maintenanceQueue.async { [self] in
            clean(removingExpired: true)
            completion()
        }
    }

    /// The scan that starts when the cache opens: it measures the folder, deletes
    /// temporary files left by crashed writers and trims when the folder is too large.
    func indexAtOpen() {
        clean(removingExpired: false)
        removeAbandonedTrash()
    }

    /// The name ``removeAll()`` gives the folder it swaps out, before deleting it.
    func trashName() -> String {
        ".\(directory.lastPathComponent)-removed-\(UUID().uuidString)"
    }

    /// Deletes folders ``removeAll()`` swapped out but a process did not live to delete.
    private func removeAbandonedTrash() {
        let parent = directory.deletingLastPathComponent()
        let prefix = ".\(directory.lastPathComponent)-removed-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    /// Scans the folder, deletes what the rules say and resets the running total from what
    /// is left, one process at a time (see ``DiskCacheSharedSize/whileTrimming(_:)``).
    /// Runs on the maintenance queue only.
    func clean(removingExpired: Bool) {
        guard maxSize > 0 else { return scanAndClean(removingExpired: removingExpired) }
        sharedSize.whileTrimming { scanAndClean(removingExpired: removingExpired) }
    }

    private func scanAndClean(removingExpired: Bool) {
        accounting.withLockedValue { $0.changeSinceScan = 0 }
        let sharedAtScan = maxSize > 0 ? sharedSize.read() : nil
        let now = Date().timeIntervalSince1970
        var (entries, hidden) = FileSystem.scan(directory: path)
        for file in hidden where file.name.hasPrefix(".tmp-") && file.modificationDate < now - Self.staleTemporaryFileAge {
            FileSystem.removeFile(atPath: path + "/" + file.name)
        }
        let usesSidecars = accounting.withLockedValue { $0.usesSidecars }
        let date: (FileSystem.Entry) -> Double = expiryType == .accessDate ? { $0.accessDate } : { $0.modificationDate }
        var size = entries.reduce(0) { $0 + $1.size }
        var removedAny = false
        var removalFailure: ImageError?
        func remove(_ entry: FileSystem.Entry) {
            if let failure = FileSystem.removeFile(atPath: path + "/" + entry.name) {
                removalFailure = removalFailure ?? failure
                return
            }
            size -= entry.size
            removedAny = true
        }

        let isOversized = maxSize > 0 && size > maxSize
        if (removingExpired || isOversized) && maxAge >= 0 {
            let cutoff = now - maxAge
            entries.removeAll { entry in
                guard date(entry) <= cutoff else { return false }
                remove(entry)
                return true
            }
        }
        if maxSize > 0 && size > maxSize {
            entries.sort { date($0) < date($1) }
            var kept = entries[...]
            while size >= maxSize / 2, let oldest = kept.popFirst() {
                remove(oldest)
            }
            entries = Array(kept)
        }
        if usesSidecars && removedAny {
            removeOrphanedSidecars(keeping: Set(entries.map(\.name)))
        }
        if let removalFailure {
            reportWriteFailure(.removal, removalFailure)
        }
        // The shared total becomes what was measured, plus what every process changed
        // during the scan (which the scan may have seen in part: that errs towards trimming).
        let sharedTotal = sharedAtScan.flatMap { before in sharedSize.update { size + $0 - before } }
        // Stores made during the scan may have pushed the folder past the limit again.
        let trimsAgain = accounting.withLockedValue { state in
            let total = size + state.changeSinceScan
            let grewMeanwhile = state.changeSinceScan > 0
            state.size = total
            state.changeSinceScan = 0
            state.isTrimScheduled = grewMeanwhile && maxSize > 0 && max(total, sharedTotal ?? 0) > maxSize
            return state.isTrimScheduled
        }
        if trimsAgain {
            maintenanceQueue.async { [self] in clean(removingExpired: true) }
        }
    }

    private func removeOrphanedSidecars(keeping names: Set<String>) {
        let now = Date().timeIntervalSince1970
        let (sidecars, temporaries) = FileSystem.scan(directory: sidecarPath)
        for sidecar in sidecars where !names.contains(sidecar.name) {
            FileSystem.removeFile(atPath: sidecarPath + "/" + sidecar.name)
        }
        for file in temporaries where file.modificationDate < now - Self.staleTemporaryFileAge {
            FileSystem.removeFile(atPath: sidecarPath + "/" + file.name)
        }
    }
}
