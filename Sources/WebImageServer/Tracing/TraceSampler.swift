/// Which traces an ``OTLPTracer`` records, as `OTEL_TRACES_SAMPLER` names them.
///
/// A trace that is not sampled still gets ids (its context is passed on with the `sampled`
/// flag clear), but its spans are neither kept nor exported.
public indirect enum TraceSampler: Sendable, Equatable {
    /// Every trace (`always_on`).
    case alwaysOn
    /// No trace (`always_off`).
    case alwaysOff
    /// The given fraction of traces, 0 to 1, chosen by the trace id so that every process
    /// that sees the trace decides alike (`traceidratio`).
    case traceIDRatio(Double)
    /// A span with a parent follows the parent's `sampled` flag; a root span is decided by
    /// `root` (`parentbased_always_on`, `parentbased_always_off`, `parentbased_traceidratio`).
    case parentBased(root: TraceSampler)

    /// Whether a span of `traceID` whose parent is `parent` (`nil` for a root span) is
    /// recorded.
    func samples(_ traceID: TraceID, parent: TraceContext?) -> Bool {
        switch self {
        case .alwaysOn: return true
        case .alwaysOff: return false
        case .traceIDRatio(let ratio):
            guard ratio < 1 else { return true }
            guard ratio > 0 else { return false }
            // The low 63 bits of the id against the ratio of 2^63.
            return traceID.low >> 1 < UInt64(ratio * 9_223_372_036_854_775_808.0)
        case .parentBased(let root):
            guard let parent else { return root.samples(traceID, parent: nil) }
            return parent.isSampled
        }
    }
}
