import Foundation

/// An imgproxy request path taken apart, as imgproxy's documentation states it:
/// `/<signature>/<options>/plain/<percent-encoded URL>[@<extension>]` or
/// `/<signature>/<options>/<base64url URL>[.<extension>]`, the base64url text possibly
/// split by `/`. Each option is a segment `name:argument:argument`; the first segment
/// without a `:` starts the source. In only-presets mode the segment after the signature
/// is a list of preset names separated by `:` instead.
struct ImgproxyPath: Sendable, Equatable {
    /// One option segment: its name and its arguments, empty ones kept (an omitted
    /// argument keeps its default).
    struct Option: Sendable, Equatable {
        /// The option's name, full or short, as written.
        let name: String
        /// The arguments, in order.
        let arguments: [String]
    }

    /// The options, in the order written (in only-presets mode, one `preset` option).
    let options: [Option]
    /// The source URL, decoded.
    let source: String
    /// The extension after `@` or `.`; `nil` when none is given.
    let fileExtension: String?

    /// The most option segments a path may have; more are refused before any is read.
    static let maximumOptionCount = 64

    /// Parses `path` (the request's raw path, without the query).
    ///
    /// - Throws: ``ImageServerError`` 404 (imgproxy's answer to a URL it cannot read) when
    ///   a segment is missing, the source is empty, names two extensions or is not valid
    ///   percent-encoding or base64url; 400 for more than ``maximumOptionCount`` options.
    init(path: String, onlyPresets: Bool) throws(ImageServerError) {
        let trimmed = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        guard let slash = trimmed.firstIndex(of: "/"), slash != trimmed.startIndex else {
            throw Self.invalid("the path must be /<signature>/<options>/<source>")
        }
        let parts = trimmed[trimmed.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false)
        var options: [Option] = []
        var sourceStart = parts.startIndex
        if onlyPresets {
            guard parts.count > 1 else { throw Self.invalid("the path must be /<signature>/<presets>/<source>") }
            options.append(Option(name: "preset", arguments: parts[0].split(separator: ":", omittingEmptySubsequences: false).map(String.init)))
            sourceStart = parts.index(after: sourceStart)
        } else {
            while sourceStart < parts.endIndex, parts[sourceStart].contains(":") {
                guard options.count < Self.maximumOptionCount else {
                    throw ImageServerError(.badRequest, "bad options: more than \(Self.maximumOptionCount) options")
                }
                let pieces = parts[sourceStart].split(separator: ":", omittingEmptySubsequences: false)
                options.append(Option(name: String(pieces[0]), arguments: pieces.dropFirst().map(String.init)))
                sourceStart = parts.index(after: sourceStart)
            }
        }
        self.options = options
        let sourceParts = parts[sourceStart...]
        guard let first = sourceParts.first else { throw Self.invalid("the image URL is empty") }
        let decoded =
            first == "plain" && sourceParts.count > 1
            ? try Self.plainSource(sourceParts.dropFirst().joined(separator: "/"))
            : try Self.encodedSource(sourceParts.joined())
        source = decoded.0
        fileExtension = decoded.1
    }

    /// The signature segment of `path` and what it signs, the rest of the path from its
    /// `/`; `nil` when the path has no segment after the signature.
    static func signature(of path: String) -> (signature: String, signedPath: String)? {
        let trimmed = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        guard let slash = trimmed.firstIndex(of: "/") else { return nil }
        return (String(trimmed[..<slash]), String(trimmed[slash...]))
    }

    /// A percent-encoded source with an optional `@extension`.
    private static func plainSource(_ text: String) throws(ImageServerError) -> (String, String?) {
        let pieces = text.split(separator: "@", omittingEmptySubsequences: false)
        guard !pieces[0].isEmpty else { throw invalid("the image URL is empty") }
        guard pieces.count <= 2 else { throw invalid("the source names more than one extension after '@'") }
        guard let decoded = pieces[0].removingPercentEncoding else { throw invalid("the source is not valid percent-encoding") }
        return (decoded, pieces.count == 2 && !pieces[1].isEmpty ? String(pieces[1]) : nil)
    }

    /// A base64url source (padding allowed) with an optional `.extension`.
    private static func encodedSource(_ text: String) throws(ImageServerError) -> (String, String?) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !pieces[0].isEmpty else { throw invalid("the image URL is empty") }
        guard pieces.count <= 2 else { throw invalid("the source names more than one extension after '.'") }
        var encoded = pieces[0]
        while encoded.hasSuffix("=") { encoded = encoded.dropLast() }
        guard let bytes = Base64URL.decode(String(encoded)), let decoded = String(bytes: bytes, encoding: .utf8) else {
            throw invalid("the source is not valid base64url")
        }
        return (decoded, pieces.count == 2 && !pieces[1].isEmpty ? String(pieces[1]) : nil)
    }

    /// imgproxy's answer to a URL it cannot read: 404, naming what is wrong.
    static func invalid(_ message: String) -> ImageServerError {
        ImageServerError(.notFound, "invalid imgproxy URL: \(message)")
    }
}
