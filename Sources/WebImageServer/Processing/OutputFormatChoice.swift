import HTTPTypes
import WebImage

/// How a request's output format is chosen: the spec's `format=NAME`; with `format=auto`
/// the first format of the operator's order of preference
/// (``ImageServerConfiguration/autoFormats``) that the client's `Accept` names and the
/// server can write, else the source's own format; with `format=best` every candidate the client accepts —
/// the operator's list (``ImageServerConfiguration/bestFormats``) and JPEG, or PNG for a
/// picture with alpha — written in turn, the smallest answered.
struct OutputFormatChoice: Sendable {
    /// The spec with `auto` replaced by the chosen format (and `best` by `auto`, so that the
    /// spec's own format is left open), ready for `TransformSpec`.
    let spec: String
    /// Whether the answer depends on `Accept` (`Vary: Accept`).
    let variesWithAccept: Bool
    /// With `format=best`, the formats of the operator's list the client accepts and the
    /// server can write, tried beside the one that suits the picture (JPEG, PNG for alpha);
    /// `nil` for any other spec.
    let bestCandidates: [ImageFormat]?

    /// Resolves `format=auto` and `format=best` in `spec` for a client that sent `accept`.
    init(
        spec: String, accept: String?, coders: ImageCodersManager, bestFormats: [ImageFormat] = [],
        autoFormats: [ImageFormat] = ImageServerConfiguration.defaultAutoFormats
    ) {
        var operations = spec.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let accepted = Self.acceptedTypes(accept)
        func isAccepted(_ format: ImageFormat) -> Bool {
            coders.canEncode(to: format) && format.mimeType.map(accepted.contains) == true
        }
        if let index = operations.firstIndex(where: { Self.formatName(of: $0) == "best" }) {
            variesWithAccept = true
            bestCandidates = bestFormats.filter(isAccepted)
            operations[index] = Self.replacingFormat(of: operations[index], with: "auto")
            self.spec = operations.joined(separator: "|")
            return
        }
        bestCandidates = nil
        guard let index = operations.firstIndex(where: { Self.formatName(of: $0) == "auto" }) else {
            self.spec = spec
            variesWithAccept = false
            return
        }
        variesWithAccept = true
        if let chosen = autoFormats.first(where: isAccepted) {
            operations[index] = Self.replacingFormat(of: operations[index], with: chosen.rawValue)
        }
        // Otherwise `format=auto` stays: the spec then leaves the format to the source's own.
        self.spec = operations.joined(separator: "|")
    }

    /// The name `operation` gives when it is `format=NAME[,…]`, lowercased; `nil` otherwise.
    private static func formatName(of operation: String) -> String? {
        let trimmed = operation.trimmingWhitespace().lowercased()
        guard trimmed.hasPrefix("format=") else { return nil }
        return String(trimmed.dropFirst("format=".count).prefix { $0 != "," })
    }

    /// `operation` (`format=NAME[,…]`) naming `name` instead, its options kept.
    private static func replacingFormat(of operation: String, with name: String) -> String {
        let options = operation.split(separator: ",", omittingEmptySubsequences: false).dropFirst()
        return (["format=\(name)"] + options.map(String.init)).joined(separator: ",")
    }

    /// The media types in an `Accept` value that are not refused with `q=0`.
    private static func acceptedTypes(_ accept: String?) -> Set<String> {
        guard let accept else { return [] }
        var types: Set<String> = []
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingWhitespace().lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            let refused = parts.dropFirst().contains { $0.hasPrefix("q=") && Double($0.dropFirst(2)) == 0 }
            if refused { continue }
            types.insert(type)
        }
        return types
    }
}
