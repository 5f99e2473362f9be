import ArgumentParser

/// A number of bytes given on the command line: plain (`1048576`) or with a binary unit
/// (`512K`, `768M`, `2G`, also written `768MiB` or `768MB`; every unit is a power of 1024).
struct ByteSize: ExpressibleByArgument, Equatable {
    /// The bytes.
    let bytes: Int

    /// Exactly `bytes` bytes.
    init(bytes: Int) {
        self.bytes = bytes
    }

    /// Parses `argument`; `nil` for anything else, negative amounts included.
    init?(argument: String) {
        var text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        for suffix in ["IB", "B"] where text.hasSuffix(suffix) && text.count > suffix.count {
            text.removeLast(suffix.count)
            break
        }
        var multiplier = 1
        if let unit = text.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][String(unit)] {
            multiplier = 1 << (10 * power)
            text.removeLast()
        }
        guard let value = Double(text), value >= 0, value * Double(multiplier) < Double(Int.max) else { return nil }
        bytes = Int(value * Double(multiplier))
    }

    /// How `--help` shows a default: in the largest unit that divides it exactly (`32M`).
    var defaultValueDescription: String {
        for (unit, power) in [("T", 4), ("G", 3), ("M", 2), ("K", 1)] where bytes > 0 && bytes % (1 << (10 * power)) == 0 {
            return "\(bytes >> (10 * power))\(unit)"
        }
        return String(bytes)
    }
}
