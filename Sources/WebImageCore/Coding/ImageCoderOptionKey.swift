/// The name and type of one option in ``ImageCoderOptions``: a coder's own setting that a
/// request passes through to it (SDWebImage's `SDImageCoderOption` keys).
///
/// Declare a type per option, with the value a coder uses when a request sets none:
///
/// ```swift
/// enum ToneMappingKey: ImageCoderOptionKey {
///     static let defaultValue = false
/// }
/// ```
public protocol ImageCoderOptionKey {
    /// The type of the option's value.
    associatedtype Value: Sendable & Hashable
    /// The value when a request sets none.
    static var defaultValue: Value { get }
}
