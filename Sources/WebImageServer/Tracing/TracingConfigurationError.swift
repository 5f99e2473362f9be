/// Why the `OTEL_*` environment cannot be followed: a variable names something this
/// server does not do (another exporter or protocol, compression, an unknown sampler) or
/// holds a value that does not read. `webimage serve` stops with it before listening,
/// rather than run without the traces the operator asked for.
public struct TracingConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The variable, such as `OTEL_EXPORTER_OTLP_PROTOCOL`.
    public let variable: String
    /// What is wrong with its value, in a sentence.
    public let reason: String

    /// The refusal of `variable`'s value, for `reason`.
    public init(_ variable: String, _ reason: String) {
        self.variable = variable
        self.reason = reason
    }

    /// The refusal in a sentence, naming the variable.
    public var description: String { "\(variable): \(reason)" }
}
