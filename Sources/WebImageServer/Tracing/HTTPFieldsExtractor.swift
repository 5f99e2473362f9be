import HTTPTypes
import Tracing

/// Reads a request's headers for a tracer's `extract` (`traceparent`, `tracestate`).
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from fields: HTTPFields) -> String? {
        guard let name = HTTPField.Name(key) else { return nil }
        return fields[name]
    }
}
