import HTTPTypes
import WebImage

/// How a request's output format is chosen: the spec's `format=NAME`, or with
/// `format=auto` the best format the client's `Accept` names (AVIF, then WebP) that the
/// server can write, else the source's own format.
struct OutputFormatChoice: Sendable {
    /// The spec with `auto` replaced by the chosen format, ready for `TransformSpec`.
    let spec: String
    /// Whether the answer depends on `Accept` (`Vary: Accept`).
    let variesWithAccept: Bool

    /// Resolves `format=auto` in `spec` for a client that sent `accept`.
    init(spec: String, accept: String?, coders: ImageCodersManager) {
        var operations = spec.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard let index = operations.firstIndex(where: { Self.isAutoFormat($0) }) else {
            self.spec = spec
            variesWithAccept = false
            return
        }
        variesWithAccept = true
        let accepted = Self.acceptedTypes(accept)
        let chosen = [ImageFormat.avif, .webp].first { format in
            coders.canEncode(to: format) && format.mimeType.map(accepted.contains) == true
        }
        if let chosen {
            let options = operations[index].split(separator: ",", omittingEmptySubsequences: false).dropFirst()
            operations[index] = (["format=\(chosen.rawValue)"] + options.map(String.init)).joined(separator: ",")
        }
        // Otherwise `format=auto` stays: the spec then leaves the format to the source's own.
        self.spec = operations.joined(separator: "|")
    }

    private static func isAutoFormat(_ operation: String) -> Bool {
        let trimmed = operation.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed == "format=auto" || trimmed.hasPrefix("format=auto,")
    }

    /// The media types in an `Accept` value that are not refused with `q=0`.
    private static func acceptedTypes(_ accept: String?) -> Set<String> {
        guard let accept else { return [] }
        var types: Set<String> = []
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            let refused = parts.dropFirst().contains { $0.hasPrefix("q=") && Double($0.dropFirst(2)) == 0 }
            if refused { continue }
            types.insert(type)
        }
        return types
    }
}
