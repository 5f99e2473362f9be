/// Where a span sits in a trace, as W3C Trace Context carries it between processes: the
/// trace id, the span's own id, the trace flags (`sampled`) and the vendors' `tracestate`.
///
/// The server reads it from an incoming request's `traceparent` and `tracestate` headers
/// (``init(traceparent:tracestate:)``), so that its spans join the trace of whatever made
/// the request, and writes it back out with ``traceparent``.
public struct TraceContext: Sendable, Hashable {
    /// The trace every span of one request belongs to.
    public let traceID: TraceID
    /// The span's id: for a context read from a request, the caller's span, which becomes
    /// the parent of the server's request span.
    public let spanID: SpanID
    /// The trace flags; bit 0 is `sampled`.
    public let flags: UInt8
    /// The `tracestate` header passed along unchanged, when there was a valid one.
    public let traceState: String?

    /// Whether the trace is recorded (`sampled`, bit 0 of the flags).
    public var isSampled: Bool { flags & 1 == 1 }

    /// A context of its parts.
    public init(traceID: TraceID, spanID: SpanID, flags: UInt8, traceState: String? = nil) {
        self.traceID = traceID
        self.spanID = spanID
        self.flags = flags
        self.traceState = traceState
    }

    /// The context a `traceparent` header value names (with `tracestate` kept beside it), or
    /// `nil` when the value is not valid by W3C Trace Context level 1:
    ///
    /// - `version-traceid-parentid-flags`, each field lowercase hexadecimal of 2, 32, 16 and 2
    ///   digits, separated by `-`;
    /// - version `ff` is invalid; version `00` is exactly 55 characters; a later version may
    ///   carry more fields after a further `-`, which are ignored (its first four fields are
    ///   read as version 00's);
    /// - a trace id or parent id of all zeros is invalid.
    ///
    /// A `tracestate` is kept only beside a valid `traceparent`, and only when it has at most
    /// 32 list members and 512 characters (longer ones are dropped whole, not cut).
    public init?(traceparent: some StringProtocol, tracestate: String? = nil) {
        let text = Array(traceparent.utf8)
        guard text.count >= 55 else { return nil }
        guard let version = HexDigits.value(of: text[0..<2]), version != 0xff, text[2] == UInt8(ascii: "-") else { return nil }
        if version == 0 {
            guard text.count == 55 else { return nil }
        } else if text.count > 55, text[55] != UInt8(ascii: "-") {
            return nil
        }
        guard text[35] == UInt8(ascii: "-"), text[52] == UInt8(ascii: "-"),
            let high = HexDigits.value(of: text[3..<19]), let low = HexDigits.value(of: text[19..<35]),
            let traceID = TraceID(high: high, low: low),
            let parent = HexDigits.value(of: text[36..<52]), let spanID = SpanID(parent),
            let flags = HexDigits.value(of: text[53..<55])
        else { return nil }
        self.init(traceID: traceID, spanID: spanID, flags: UInt8(flags), traceState: tracestate.flatMap(Self.validTraceState))
    }

    /// The `traceparent` header value of this context, version 00.
    public var traceparent: String {
        "00-\(traceID)-\(spanID)-" + (flags < 16 ? "0" : "") + String(flags, radix: 16)
    }

    /// `value` when it is a `tracestate` this server passes along: at most 512 characters
    /// and 32 non-empty list members; `nil` otherwise.
    private static func validTraceState(_ value: String) -> String? {
        let trimmed = value.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 512 else { return nil }
        let members = trimmed.split(separator: ",").filter { !$0.trimmingWhitespace().isEmpty }
        guard members.count <= 32, members.allSatisfy({ $0.contains("=") }) else { return nil }
        return trimmed
    }
}
