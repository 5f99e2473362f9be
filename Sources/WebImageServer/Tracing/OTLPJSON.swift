import Foundation
import Tracing

/// The OTLP/JSON encoding of spans: the protobuf JSON mapping of an
/// `ExportTraceServiceRequest` as OTLP/HTTP defines it — `resourceSpans` → `scopeSpans` →
/// `spans`, ids as lowercase hexadecimal (not base64), enums as integers, 64-bit integers
/// (times, integer attributes) as decimal strings, camelCase field names.
enum OTLPJSON {
    /// The instrumentation scope the server's spans are reported under.
    static let scopeName = "WebImageServer"

    /// The body of one POST to `/v1/traces`: `spans` under a resource of `resource`'s attributes.
    static func exportRequest(_ spans: [FinishedSpan], resource: [(key: String, value: String)]) -> Data {
        let document: [String: Any] = [
            "resourceSpans": [
                [
                    "resource": ["attributes": resource.map { ["key": $0.key, "value": ["stringValue": $0.value]] }],
                    "scopeSpans": [["scope": ["name": scopeName], "spans": spans.map(span)]],
                ]
            ]
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
    }

    /// One span message.
    static func span(_ span: FinishedSpan) -> [String: Any] {
        var message: [String: Any] = [
            "traceId": span.context.traceID.description,
            "spanId": span.context.spanID.description,
            "name": span.name,
            "kind": kind(span.kind),
            "startTimeUnixNano": String(span.startNanoseconds),
            "endTimeUnixNano": String(span.endNanoseconds),
            "attributes": attributes(span.attributes),
            "flags": Int(span.context.flags),
        ]
        if let parent = span.parentSpanID { message["parentSpanId"] = parent.description }
        if let state = span.context.traceState { message["traceState"] = state }
        if let status = span.status {
            var fields: [String: Any] = ["code": status.code == .ok ? 1 : 2]
            if let text = status.message { fields["message"] = text }
            message["status"] = fields
        }
        if !span.events.isEmpty {
            message["events"] = span.events.map { event in
                [
                    "name": event.name, "timeUnixNano": String(event.nanosecondsSinceEpoch),
                    "attributes": attributes(event.attributes),
                ] as [String: Any]
            }
        }
        if !span.links.isEmpty {
            message["links"] = span.links.map { link in
                [
                    "traceId": link.context.traceID.description, "spanId": link.context.spanID.description,
                    "attributes": attributes(link.attributes),
                ] as [String: Any]
            }
        }
        return message
    }

    /// OTLP's `SpanKind` number.
    static func kind(_ kind: SpanKind) -> Int {
        switch kind {
        case .internal: 1
        case .server: 2
        case .client: 3
        case .producer: 4
        case .consumer: 5
        }
    }

    /// A span's attributes as `KeyValue` messages, sorted by key.
    static func attributes(_ attributes: SpanAttributes) -> [[String: Any]] {
        var list: [(String, SpanAttribute)] = []
        func add(_ key: String, _ value: SpanAttribute) { list.append((key, value)) }
        attributes.forEach(add)
        return list.sorted { $0.0 < $1.0 }.map { ["key": $0.0, "value": value($0.1)] }
    }

    /// An attribute's `AnyValue` message.
    static func value(_ attribute: SpanAttribute) -> [String: Any] {
        switch attribute {
        case .int32(let value): ["intValue": String(value)]
        case .int64(let value): ["intValue": String(value)]
        case .double(let value): ["doubleValue": value]
        case .bool(let value): ["boolValue": value]
        case .string(let value): ["stringValue": value]
        case .stringConvertible(let value): ["stringValue": value.description]
        case .int32Array(let values): array(values.map { ["intValue": String($0)] })
        case .int64Array(let values): array(values.map { ["intValue": String($0)] })
        case .doubleArray(let values): array(values.map { ["doubleValue": $0] })
        case .boolArray(let values): array(values.map { ["boolValue": $0] })
        case .stringArray(let values): array(values.map { ["stringValue": $0] })
        case .stringConvertibleArray(let values): array(values.map { ["stringValue": $0.description] })
        default: ["stringValue": "\(attribute)"]
        }
    }

    /// An `ArrayValue` of `values`.
    private static func array(_ values: [[String: Any]]) -> [String: Any] {
        ["arrayValue": ["values": values]]
    }
}
