/// A span as an OTLP/JSON body carried it, read back by the test's receiver.
struct ReceivedSpan: Sendable {
    let name: String
    let traceID: String
    let spanID: String
    let parentSpanID: String?
    let kind: Int
    let start: UInt64
    let end: UInt64
    /// Each attribute's value as text (`stringValue`, or `intValue`'s decimal string).
    let attributes: [String: String]
    /// The resource's attributes, as text.
    let resource: [String: String]
    /// The status code: 0 unset, 1 ok, 2 error.
    let statusCode: Int

    init(_ message: [String: Any], resource: [String: String]) {
        name = message["name"] as? String ?? ""
        traceID = message["traceId"] as? String ?? ""
        spanID = message["spanId"] as? String ?? ""
        parentSpanID = message["parentSpanId"] as? String
        kind = message["kind"] as? Int ?? 0
        start = UInt64(message["startTimeUnixNano"] as? String ?? "") ?? 0
        end = UInt64(message["endTimeUnixNano"] as? String ?? "") ?? 0
        attributes = Self.attributes(message["attributes"])
        self.resource = resource
        statusCode = (message["status"] as? [String: Any])?["code"] as? Int ?? 0
    }

    /// `KeyValue` messages as text by key.
    static func attributes(_ list: Any?) -> [String: String] {
        var attributes: [String: String] = [:]
        for pair in list as? [[String: Any]] ?? [] {
            guard let key = pair["key"] as? String, let value = pair["value"] as? [String: Any] else { continue }
            if let text = value["stringValue"] as? String {
                attributes[key] = text
            } else if let number = value["intValue"] as? String {
                attributes[key] = number
            } else if let flag = value["boolValue"] as? Bool {
                attributes[key] = String(flag)
            }
        }
        return attributes
    }
}
