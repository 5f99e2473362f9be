import Foundation

/// Where and how an ``OTLPTracer`` exports spans: OTLP over HTTP with the JSON encoding
/// (`POST` to ``endpoint``, `Content-Type: application/json`), read from the standard
/// OpenTelemetry environment variables by ``init(environment:)``.
///
/// See <doc:Tracing> for each variable.
public struct OTLPConfiguration: Sendable {
    /// The URL spans are POSTed to, `…/v1/traces`.
    public var endpoint: URL
    /// Headers sent with every POST (an API key, a tenant), in order.
    public var headers: [(name: String, value: String)] = []
    /// The resource's attributes: `service.name` first, then `OTEL_RESOURCE_ATTRIBUTES`'s.
    public var resourceAttributes: [(key: String, value: String)]
    /// Which traces are recorded.
    public var sampler: TraceSampler = .parentBased(root: .alwaysOn)
    /// How long the exporter waits between POSTs when no batch fills up (5 s by default).
    public var scheduleDelay: Duration = .seconds(5)
    /// The most spans waiting to be sent; past it, spans are dropped and counted (2048).
    public var maxQueueSize = 2048
    /// The most spans in one POST, and the queue length that wakes the exporter early (512).
    public var maxExportBatchSize = 512
    /// How long a POST may take (10 s).
    public var timeout: Duration = .seconds(10)

    /// Exports to `endpoint` as the service `serviceName`.
    public init(endpoint: URL, serviceName: String = "webimage") {
        self.endpoint = endpoint
        resourceAttributes = [("service.name", serviceName)]
    }

    /// The variables ``init(environment:)`` reads; ``unreadVariables(in:)`` names the others.
    public static let variables: Set<String> = [
        "OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
        "OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_COMPRESSION",
        "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", "OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES", "OTEL_TRACES_SAMPLER",
        "OTEL_TRACES_SAMPLER_ARG", "OTEL_BSP_SCHEDULE_DELAY", "OTEL_BSP_MAX_QUEUE_SIZE", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
    ]

    /// The `OTEL_*` variables in `environment` that this server does not read (those of
    /// metrics and logs, TLS files, other exporters' settings), sorted: `webimage serve`
    /// names each in a warning, so that none is taken for applied.
    public static func unreadVariables(in environment: [String: String]) -> [String] {
        environment.keys.filter { $0.hasPrefix("OTEL_") && !variables.contains($0) }.sorted()
    }

    /// The configuration the standard variables in `environment` describe, or `nil` when
    /// they leave tracing off: `OTEL_TRACES_EXPORTER` unset or `none` (off is this server's
    /// default), or `OTEL_SDK_DISABLED=true`.
    ///
    /// - Throws: ``TracingConfigurationError`` for a variable that names what this server
    ///   does not do — an exporter other than `otlp`, a protocol other than `http/json`,
    ///   compression, an unknown sampler — or whose value does not read.
    public init?(environment: [String: String]) throws(TracingConfigurationError) {
        if let disabled = environment["OTEL_SDK_DISABLED"], disabled.trimmingWhitespace().lowercased() == "true" { return nil }
        let exporters = (environment["OTEL_TRACES_EXPORTER"] ?? "none").split(separator: ",").map { $0.trimmingWhitespace().lowercased() }
        for exporter in exporters where exporter != "otlp" && exporter != "none" {
            throw TracingConfigurationError("OTEL_TRACES_EXPORTER", "the exporter \(exporter) is not supported; only otlp is (or none)")
        }
        guard exporters.contains("otlp") else { return nil }
        let traces = { (name: String) in environment["OTEL_EXPORTER_OTLP_TRACES_\(name)"].map { ("OTEL_EXPORTER_OTLP_TRACES_\(name)", $0) } }
        let general = { (name: String) in environment["OTEL_EXPORTER_OTLP_\(name)"].map { ("OTEL_EXPORTER_OTLP_\(name)", $0) } }

        if let (variable, value) = traces("PROTOCOL") ?? general("PROTOCOL"), value.trimmingWhitespace() != "http/json" {
            throw TracingConfigurationError(variable, "the protocol \(value) is not supported; only http/json is")
        }
        for (variable, value) in [traces("COMPRESSION"), general("COMPRESSION")].compactMap({ $0 }) where value.trimmingWhitespace() != "none" {
            throw TracingConfigurationError(variable, "compression \(value) is not supported; only none is")
        }
        let endpoint: URL
        if let (variable, value) = traces("ENDPOINT") {
            endpoint = try Self.url(value, variable: variable)
        } else if let (variable, value) = general("ENDPOINT") {
            let base = try Self.url(value, variable: variable)
            endpoint = base.path.hasSuffix("/") ? base.appendingPathComponent("v1/traces") : base.appendingPathComponent("/v1/traces")
        } else {
            endpoint = URL(string: "http://localhost:4318/v1/traces")!
        }
        var resource: [(key: String, value: String)] = []
        if let value = environment["OTEL_RESOURCE_ATTRIBUTES"] {
            resource = try Self.pairs(value, variable: "OTEL_RESOURCE_ATTRIBUTES")
        }
        let service = environment["OTEL_SERVICE_NAME"] ?? resource.last { $0.key == "service.name" }?.value ?? "webimage"
        self.init(endpoint: endpoint, serviceName: service)
        resourceAttributes += resource.filter { $0.key != "service.name" }
        for (variable, value) in [general("HEADERS"), traces("HEADERS")].compactMap({ $0 }) {
            let given = try Self.pairs(value, variable: variable)
            headers.removeAll { header in given.contains { $0.key.lowercased() == header.name.lowercased() } }
            headers += given.map { (name: $0.key, value: $0.value) }
        }
        if let (variable, value) = traces("TIMEOUT") ?? general("TIMEOUT") {
            timeout = .milliseconds(try Self.count(value, variable: variable))
        }
        sampler = try Self.sampler(environment["OTEL_TRACES_SAMPLER"], argument: environment["OTEL_TRACES_SAMPLER_ARG"])
        if let value = environment["OTEL_BSP_SCHEDULE_DELAY"] {
            scheduleDelay = .milliseconds(try Self.count(value, variable: "OTEL_BSP_SCHEDULE_DELAY"))
        }
        if let value = environment["OTEL_BSP_MAX_QUEUE_SIZE"] {
            maxQueueSize = try Self.count(value, variable: "OTEL_BSP_MAX_QUEUE_SIZE")
        }
        if let value = environment["OTEL_BSP_MAX_EXPORT_BATCH_SIZE"] {
            maxExportBatchSize = try Self.count(value, variable: "OTEL_BSP_MAX_EXPORT_BATCH_SIZE")
        }
        guard maxQueueSize > 0, maxExportBatchSize > 0 else {
            throw TracingConfigurationError("OTEL_BSP_MAX_QUEUE_SIZE", "the queue and the batch must hold at least one span")
        }
    }

    /// An `http` or `https` URL.
    private static func url(_ value: String, variable: String) throws(TracingConfigurationError) -> URL {
        guard let url = URL(string: value.trimmingWhitespace()), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil else {
            throw TracingConfigurationError(variable, "\(value) is not an http or https URL")
        }
        return url
    }

    /// A whole number of at least 0.
    private static func count(_ value: String, variable: String) throws(TracingConfigurationError) -> Int {
        guard let number = Int(value.trimmingWhitespace()), number >= 0 else {
            throw TracingConfigurationError(variable, "\(value) is not a whole number of at least 0")
        }
        return number
    }

    /// `key=value` pairs separated by commas, each key and value percent-decoded (the W3C
    /// Baggage form that `OTEL_RESOURCE_ATTRIBUTES` and `OTEL_EXPORTER_OTLP_HEADERS` use).
    private static func pairs(_ value: String, variable: String) throws(TracingConfigurationError) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        for member in value.split(separator: ",") where !member.trimmingWhitespace().isEmpty {
            let parts = member.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let key = parts[0].trimmingWhitespace().removingPercentEncoding, !key.isEmpty,
                let decoded = parts[1].trimmingWhitespace().removingPercentEncoding
            else {
                throw TracingConfigurationError(variable, "\(member) is not key=value")
            }
            pairs.append((key, decoded))
        }
        return pairs
    }

    /// The sampler `OTEL_TRACES_SAMPLER` names (`parentbased_always_on` when unset), with
    /// `OTEL_TRACES_SAMPLER_ARG`'s ratio for the `traceidratio` ones (1 when unset).
    private static func sampler(_ name: String?, argument: String?) throws(TracingConfigurationError) -> TraceSampler {
        var ratio = 1.0
        if let argument {
            guard let value = Double(argument.trimmingWhitespace()), (0...1).contains(value) else {
                throw TracingConfigurationError("OTEL_TRACES_SAMPLER_ARG", "\(argument) is not a ratio from 0 to 1")
            }
            ratio = value
        }
        switch name?.trimmingWhitespace().lowercased() ?? "parentbased_always_on" {
        case "always_on": return .alwaysOn
        case "always_off": return .alwaysOff
        case "traceidratio": return .traceIDRatio(ratio)
        case "parentbased_always_on": return .parentBased(root: .alwaysOn)
        case "parentbased_always_off": return .parentBased(root: .alwaysOff)
        case "parentbased_traceidratio": return .parentBased(root: .traceIDRatio(ratio))
        case let other:
            throw TracingConfigurationError(
                "OTEL_TRACES_SAMPLER",
                "the sampler \(other) is not supported; use always_on, always_off, traceidratio or parentbased_ with one of them")
        }
    }
}
