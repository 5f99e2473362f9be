import WebImage

/// `webimage info --formats`: what the coders of a manager decode and encode, as a
/// table for people or one JSON object per format.
struct FormatsTable {
    /// The rows, one per format some coder handles.
    let rows: [ImageFormatSupport]

    /// The table of `coders`.
    init(coders: ImageCodersManager) {
        rows = coders.supportedFormats
    }

    /// A header line, then one line per format: name, MIME type, decode, encode.
    var text: String {
        let lines = rows.map { row in
            let name = row.format.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
            let mime = (row.format.mimeType ?? "").padding(toLength: 14, withPad: " ", startingAt: 0)
            return "\(name) \(mime) \(row.decodes ? "yes" : "no ")    \(row.encodes ? "yes" : "no")"
        }
        return (["format mime type      decode encode"] + lines).joined(separator: "\n")
    }

    /// One JSON object per line: `{"format":…,"mimeType":…,"decode":…,"encode":…}`.
    var json: String {
        rows.map { row in
            var object = JSONObject()
            object.add("format", row.format.rawValue)
            object.add("mimeType", row.format.mimeType ?? "")
            object.add("decode", row.decodes)
            object.add("encode", row.encodes)
            return object.description
        }.joined(separator: "\n")
    }
}
