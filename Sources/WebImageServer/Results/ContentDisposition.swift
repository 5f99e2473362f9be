import Foundation
import WebImage

/// The `Content-Disposition` of an image answer, from the spec's `filename=NAME` and
/// `attachment` (RFC 6266).
///
/// The name a request gives is sanitised before it reaches the header: control and
/// formatting characters (line breaks, bidirectional overrides) are dropped, path
/// separators and quotes become `_`, and leading dots and spaces are dropped, so that a name
/// can neither break the header nor name a hidden file or a folder. The header carries the
/// result twice: as `filename*=UTF-8''…` (percent-encoded UTF-8, RFC 8187) and as a plain
/// `filename="…"` for clients that read only that, where every run of characters other than
/// ASCII letters, digits, `.`, `-` and `_` becomes one `_`.
///
/// The name cannot lie about what it holds: its extension is always the answer's format's
/// (`filename=invoice.html` on a PNG answer is `invoice.png`, `filename=photo` is
/// `photo.png`), so a browser saving the download never takes an image for a page.
struct ContentDisposition: Sendable, Equatable {
    /// Whether the answer is offered as a download (`attachment`) rather than shown (`inline`).
    let isAttachment: Bool
    /// The sanitised file name; `nil` when the spec names none.
    let filename: String?

    /// The longest file name, in characters, that `filename=` accepts.
    static let maximumFilenameLength = 200

    /// A disposition from the spec's options.
    ///
    /// - Parameters:
    ///   - filename: The name `filename=` gives, as written; `nil` for none.
    ///   - isAttachment: Whether the spec says `attachment`.
    /// - Throws: ``ImageServerError`` 400 for a name longer than
    ///   ``maximumFilenameLength`` or one with nothing left after sanitising.
    init(filename: String?, isAttachment: Bool) throws(ImageServerError) {
        self.isAttachment = isAttachment
        guard let filename else {
            self.filename = nil
            return
        }
        guard filename.count <= Self.maximumFilenameLength else {
            throw ImageServerError(.badRequest, "bad spec: filename: at most \(Self.maximumFilenameLength) characters")
        }
        let sanitised = Self.sanitised(filename)
        guard !sanitised.isEmpty else {
            throw ImageServerError(.badRequest, "bad spec: filename: nothing is left of the name once sanitised")
        }
        self.filename = sanitised
    }

    /// The header's value for an answer written as `format`, such as
    /// `inline; filename="My_Photo_.png"; filename*=UTF-8''My%20Photo%20%C3%BC.png`: the
    /// name with `format`'s extension in place of its own (see ``named(_:as:)``).
    func headerValue(for format: ImageFormat) -> String {
        let type = isAttachment ? "attachment" : "inline"
        guard let filename else { return type }
        let named = Self.named(filename, as: format)
        return "\(type); filename=\"\(Self.asciiFallback(named))\"; filename*=UTF-8''\(Self.percentEncoded(named))"
    }

    /// `name` with the extension of `format` in place of whatever follows its last dot (or
    /// added, when it has none); with no extension for `format`, `name` without its own.
    static func named(_ name: String, as format: ImageFormat) -> String {
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        guard let fileExtension = format.fileExtension else { return stem }
        return "\(stem).\(fileExtension)"
    }

    /// `name` without control and formatting characters, with `_` for path separators and
    /// quotes, and without leading dots and spaces or trailing spaces.
    static func sanitised(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                continue
            default:
                scalars.append(["/", "\\", "\""].contains(scalar) ? "_" : scalar)
            }
        }
        let name = String(scalars).drop { $0 == "." || $0.isWhitespace }
        return String(name.reversed().drop(while: \.isWhitespace).reversed())
    }

    /// `name` with every run of characters other than ASCII letters, digits, `.`, `-` and
    /// `_` replaced by one `_`.
    static func asciiFallback(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isASCII, character.isLetter || character.isNumber || ".-_".contains(character) {
                result.append(character)
            } else if result.last != "_" {
                result.append("_")
            }
        }
        return result
    }

    /// `name`'s UTF-8 bytes percent-encoded, all but RFC 8187's `attr-char`s.
    static func percentEncoded(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: attributeCharacters) ?? ""
    }

    /// RFC 8187's `attr-char`: ASCII letters and digits and ``!#$&+-.^_`|~``.
    private static let attributeCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~")
}
