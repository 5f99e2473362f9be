import WebImage

/// The outcome of one distinct URL of `webimage fetch`: its loads (one per time it was
/// given) and what was done with the image.
struct FetchResult {
    /// The URL as given on the command line.
    let argument: String
    /// The records of the URL's loads, in input order.
    let records: [LoadRecord]
    /// Where the image was saved, with `--save`.
    var savedPath: String?
    /// Why saving failed, with `--save`.
    var saveError: ImageError?

    /// Creates the result of a URL's loads.
    init(argument: String, records: [LoadRecord]) {
        self.argument = argument
        self.records = records
    }

    /// The first load's record: what the URL's line describes.
    var first: LoadRecord? { records.first }

    /// The answers all of the URL's loads received.
    var callbacks: Int { records.reduce(0) { $0 + $1.answers } }

    /// The partial images all of the URL's loads received.
    var partials: Int { records.reduce(0) { $0 + $1.partials } }

    /// The original bytes, when any load's answer carried them.
    var bytes: Int? { records.lazy.compactMap(\.dataCount).first }

    /// Why the URL gave no image (or could not be saved); `nil` on success.
    var error: ImageError? {
        guard let record = records.first(where: { !$0.succeeded }) else { return saveError }
        return record.error
    }

    /// The line `--json` prints.
    var jsonObject: JSONObject {
        var object = JSONObject()
        object.add("url", argument)
        if let error {
            object.add("ok", false)
            object.add("error", error.jsonObject)
            return object
        }
        guard let first, let image = first.image else { return object }
        object.add("ok", true)
        object.add("cacheType", first.cacheType.jsonName)
        object.add("format", image.format.rawValue)
        object.add("width", image.pixelWidth)
        object.add("height", image.pixelHeight)
        object.add("frames", image.frameCount)
        if let bytes { object.add("bytes", bytes) }
        object.add("callbacks", callbacks)
        object.add("partials", partials)
        if let savedPath { object.add("saved", savedPath) }
        return object
    }

    /// The line printed without `--json`.
    var text: String {
        if let error { return "\(argument): error \(error)" }
        guard let first, let image = first.image else { return "\(argument): no image" }
        var line = "\(argument): \(image.format.rawValue) \(image.pixelWidth)×\(image.pixelHeight)"
        if image.isAnimated { line += ", \(image.frameCount) frames" }
        if let bytes { line += ", \(Terminal.size(bytes))" }
        switch first.cacheType {
        case .memory: line += ", from memory"
        case .disk: line += ", from disk"
        default: line += ", loaded"
        }
        if callbacks > 1 { line += ", \(callbacks) callbacks" }
        if partials > 0 { line += ", \(partials) partial images" }
        if let savedPath { line += ", saved as \(savedPath)" }
        return line
    }
}

extension ImageCacheType {
    /// `none`, `memory` or `disk`: where a load's image came from, as the tool prints it.
    var jsonName: String {
        switch self {
        case .memory: "memory"
        case .disk: "disk"
        default: "none"
        }
    }
}
