import Foundation

/// The memory this process may use, as the kernel will enforce it: the cgroup's limit when
/// one is set (containers, systemd slices), otherwise the machine's physical memory.
public enum ProcessMemory {
    /// The bytes this process may use: the smaller of the cgroup limit and physical memory.
    public static var available: Int {
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        guard let limit = cgroupLimit(), limit > 0 else { return physical }
        return min(limit, physical)
    }

    /// The memory cache's default cost limit: 15 % of ``available``, at most 768 MiB (Nuke's
    /// rule), and at least 16 MiB so that a tiny container still caches a few images.
    ///
    /// Read once per process: every ``ImageCacheConfiguration`` starts from it.
    public static let defaultMemoryCacheLimit = defaultMemoryCacheLimit(available: available)

    /// The default limit for a process that may use `available` bytes.
    static func defaultMemoryCacheLimit(available: Int) -> Int {
        let share = available / 100 * 15
        return min(max(share, 16 << 20), 768 << 20)
    }

    /// The limit of the cgroup this process is in, from cgroup v2's `memory.max` or v1's
    /// `memory.limit_in_bytes`; `nil` when there is none ("max", or a v1 value so large it
    /// means unlimited).
    static func cgroupLimit(root: String = "/sys/fs/cgroup") -> Int? {
        let candidates = [
            cgroupV2Path(root: root).map { "\($0)/memory.max" },
            "\(root)/memory.max",
            "\(root)/memory/memory.limit_in_bytes",
        ]
        for case let path? in candidates {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if value == "max" { return nil }
            // cgroup v1 reports "no limit" as a page-rounded Int64.max.
            if let bytes = Int(value), bytes > 0, bytes < 1 << 60 { return bytes }
            return nil
        }
        return nil
    }

    /// The folder of this process's own cgroup v2 group (from `/proc/self/cgroup`'s `0::` line).
    private static func cgroupV2Path(root: String) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            let group = line.dropFirst(3)
            guard group != "/" else { return nil }
            return root + group
        }
        return nil
    }
}
