import Foundation
import NIOConcurrencyHelpers

/// Adds up the time spent inside coders' `decode` calls, across every thread that decodes.
final class DecodeTimer: Sendable {
    /// The decodes counted so far and their summed time.
    struct Totals: Sendable {
        /// How many decodes ran (failed ones too).
        var decodes = 0
        /// Their summed time in nanoseconds.
        var nanoseconds: UInt64 = 0

        /// The summed time in seconds.
        var seconds: Double { Double(nanoseconds) / 1e9 }

        /// What was counted after `earlier`.
        func since(_ earlier: Totals) -> Totals {
            Totals(decodes: decodes - earlier.decodes, nanoseconds: nanoseconds - earlier.nanoseconds)
        }
    }

    private let box = NIOLockedValueBox(Totals())

    /// The totals so far.
    var totals: Totals { box.withLockedValue { $0 } }

    /// Counts one decode that took `nanoseconds`.
    func record(nanoseconds: UInt64) {
        box.withLockedValue { totals in
            totals.decodes += 1
            totals.nanoseconds += nanoseconds
        }
    }
}
