import WebImageCore

/// Why a transform spec could not be read: which operation, which argument, and what is
/// allowed there.
public struct TransformSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation's name as written (`"resize"`), or `nil` for a problem with the spec
    /// as a whole.
    public let operation: String?
    /// The argument as written, or `nil` when the problem is not one argument.
    public let argument: String?
    /// What is wrong and what is allowed, for people.
    public let message: String

    /// Creates an error about `argument` of `operation`.
    public init(operation: String?, argument: String? = nil, message: String) {
        self.operation = operation
        self.argument = argument
        self.message = message
    }

    /// `resize: argument 'x0': a size is WIDTHxHEIGHT, …`.
    public var description: String {
        var text = operation.map { "\($0): " } ?? ""
        if let argument { text += "argument '\(argument)': " }
        return text + message
    }
}
