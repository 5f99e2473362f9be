#if Server
/// A value of thumbor's configuration file, in the literal forms it is written in: a
/// string, a number, `True`/`False`, `None`, or a list or tuple of those.
enum ThumborConfigValue: Sendable, Equatable {
    /// `'text'` or `"text"`.
    case string(String)
    /// A whole or decimal number, or a product of them (`24 * 60 * 60`).
    case number(Double)
    /// `True` or `False`.
    case bool(Bool)
    /// `None`.
    case none
    /// `[…]` or `(…)`.
    case list([ThumborConfigValue])

    /// The value as Python would print it, for messages.
    var text: String {
        switch self {
        case let .string(text): "'\(text)'"
        case let .number(value): value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case let .bool(value): value ? "True" : "False"
        case .none: "None"
        case let .list(items): "[" + items.map(\.text).joined(separator: ", ") + "]"
        }
    }
}
#endif
