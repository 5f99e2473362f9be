import Foundation

/// A JSON object that keeps its keys in the order they were added, written on one line.
///
/// The tool's `--json` output is read by scripts and people alike; a fixed key order
/// keeps it diffable, which `JSONEncoder` does not promise.
struct JSONObject: CustomStringConvertible {
    private var members: [(key: String, value: String)] = []

    /// Adds a string member.
    mutating func add(_ key: String, _ value: String) {
        members.append((key, JSONObject.quoted(value)))
    }

    /// Adds an integer member.
    mutating func add(_ key: String, _ value: Int) {
        members.append((key, String(value)))
    }

    /// Adds a number member, written with at most six decimals.
    mutating func add(_ key: String, _ value: Double) {
        members.append((key, JSONObject.number(value)))
    }

    /// Adds a boolean member.
    mutating func add(_ key: String, _ value: Bool) {
        members.append((key, value ? "true" : "false"))
    }

    /// Adds an array of numbers.
    mutating func add(_ key: String, _ values: [Double]) {
        members.append((key, "[" + values.map(JSONObject.number).joined(separator: ",") + "]"))
    }

    /// Adds a nested object.
    mutating func add(_ key: String, _ object: JSONObject) {
        members.append((key, object.description))
    }

    /// The object as one line of JSON.
    var description: String {
        "{" + members.map { "\(JSONObject.quoted($0.key)):\($0.value)" }.joined(separator: ",") + "}"
    }

    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += String(format: "\\u%04x", scalar.value)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
