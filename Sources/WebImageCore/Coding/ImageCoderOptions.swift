/// Options for coders beyond the fields of ``ImageDecodeOptions``, keyed by type and passed
/// through untouched from a request to the coder that decodes it — SDWebImage's
/// `SDWebImageContextImageDecodeOptions` dictionary, typed.
///
/// A coder reads `options.coderOptions[ToneMappingKey.self]` and gets the key's
/// ``ImageCoderOptionKey/defaultValue`` when the request set nothing. Two option sets are
/// equal when they hold equal values for the same keys.
public struct ImageCoderOptions: Sendable, Hashable {
    /// One stored value, compared and hashed through its own type.
    private struct StoredValue: Sendable, Hashable {
        let value: any Sendable & Hashable

        static func == (lhs: StoredValue, rhs: StoredValue) -> Bool {
            lhs.isEqual(to: rhs.value)
        }

        func hash(into hasher: inout Hasher) {
            value.hash(into: &hasher)
        }

        private func isEqual(to other: any Sendable & Hashable) -> Bool {
            func equals<Value: Hashable>(_ value: Value) -> Bool {
                (other as? Value) == value
            }
            return equals(value)
        }
    }

    private var values: [ObjectIdentifier: StoredValue] = [:]

    /// No options: every key reads as its default.
    public init() {}

    /// Whether no option is set.
    public var isEmpty: Bool { values.isEmpty }

    /// The value set for `key`, or its ``ImageCoderOptionKey/defaultValue``.
    public subscript<Key: ImageCoderOptionKey>(key: Key.Type) -> Key.Value {
        get { (values[ObjectIdentifier(key)]?.value as? Key.Value) ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = StoredValue(value: newValue) }
    }

    /// Removes the value set for `key`, so that it reads as its default again.
    public mutating func removeValue<Key: ImageCoderOptionKey>(for key: Key.Type) {
        values[ObjectIdentifier(key)] = nil
    }
}
