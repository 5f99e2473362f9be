import Foundation
import WebImage

/// A thumbor request path taken apart as thumbor's URL pattern reads it:
/// `/<signature or unsafe>/[debug/][meta/][trim[:top-left|:bottom-right][:N]/][AxB:CxD/]`
/// `[adaptive-][full-]fit-in/][-][W|orig]x[-][H|orig]/[HALIGN/][VALIGN/][smart/]`
/// `[filters:NAME(ARGS):…/]IMAGE`. Each part is optional and read in that order; a segment
/// that is not the next part starts the image, which is the rest of the path.
struct ThumborPath: Sendable {
    /// A side of the requested size.
    enum Side: Sendable, Equatable {
        /// Not given, or 0: follows from the other side (or the source's).
        case proportional
        /// `orig`: the source's own.
        case original
        /// A number of pixels.
        case pixels(Int)
    }

    /// The signature segment, `unsafe` included.
    let signature: String
    /// What the signature signs: the path after the signature segment and its `/`.
    let signedPath: String
    /// `debug/`: the focal points drawn.
    var debug = false
    /// `meta/`: the operations answered as JSON instead of the image.
    var meta = false
    /// `trim`: the corner whose colour is trimmed (`top-left` or `bottom-right`) and the
    /// tolerance; `nil` when the path does not trim.
    var trim: (corner: String, tolerance: Int)?
    /// The manual crop `left x top : right x bottom`, in source pixels; `nil` for none.
    var crop: (left: Int, top: Int, right: Int, bottom: Int)?
    /// `fit-in` (or `adaptive-`/`full-` forms).
    var fitIn = false
    /// `full-`: the picture covers the box instead of fitting in it.
    var full = false
    /// `adaptive-`: the box turned to the picture's orientation.
    var adaptive = false
    /// The requested width.
    var width = Side.proportional
    /// The requested height.
    var height = Side.proportional
    /// A `-` before the width: flipped left to right.
    var flipsHorizontally = false
    /// A `-` before the height: flipped top to bottom.
    var flipsVertically = false
    /// `left`, `center` or `right`.
    var horizontalAlignment = "center"
    /// `top`, `middle` or `bottom`.
    var verticalAlignment = "middle"
    /// `smart/`.
    var smart = false
    /// The filters, in order.
    var filters: [ThumborFilter] = []
    /// The image, as written (still percent-encoded).
    var image = ""

    /// The most filters a path may name; more are refused before any is read.
    static let maximumFilterCount = 64

    /// Parses `path` (the request's raw path, without the query).
    ///
    /// - Throws: ``ImageServerError`` 400 (thumbor's answer) when the path has no signature
    ///   segment or no image, or names more than ``maximumFilterCount`` filters.
    init(path: String) throws(ImageServerError) {
        let trimmed = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        guard let slash = trimmed.firstIndex(of: "/"), slash != trimmed.startIndex else {
            throw Self.invalid("the path must be /<signature or unsafe>/…/<image>")
        }
        signature = String(trimmed[..<slash])
        var rest = trimmed[trimmed.index(after: slash)...]
        signedPath = String(rest)
        /// The next segment when it is followed by more of the path (the image is never
        /// empty), or `nil`.
        func next() -> Substring? {
            guard let end = rest.firstIndex(of: "/"), rest.index(after: end) < rest.endIndex else { return nil }
            return rest[..<end]
        }
        func consume(_ segment: Substring) { rest = rest[rest.index(after: segment.endIndex)...] }
        if let segment = next(), segment == "debug" {
            debug = true
            consume(segment)
        }
        if let segment = next(), segment == "meta" {
            meta = true
            consume(segment)
        }
        if let segment = next(), let trim = Self.trim(segment) {
            self.trim = trim
            consume(segment)
        }
        if let segment = next(), let crop = Self.crop(segment) {
            self.crop = crop
            consume(segment)
        }
        if let segment = next(), ["fit-in", "full-fit-in", "adaptive-fit-in", "adaptive-full-fit-in"].contains(segment) {
            fitIn = true
            full = segment.contains("full-")
            adaptive = segment.hasPrefix("adaptive-")
            consume(segment)
        }
        if let segment = next(), let size = try Self.size(segment) {
            (flipsHorizontally, width, flipsVertically, height) = size
            consume(segment)
        }
        if let segment = next(), ["left", "center", "right"].contains(segment) {
            horizontalAlignment = String(segment)
            consume(segment)
        }
        if let segment = next(), ["top", "middle", "bottom"].contains(segment) {
            verticalAlignment = String(segment)
            consume(segment)
        }
        if let segment = next(), segment == "smart" {
            smart = true
            consume(segment)
        }
        if rest.hasPrefix("filters:"), let end = rest.range(of: ")/"), end.upperBound < rest.endIndex {
            // thumbor's pattern takes the filters up to the first `)/`, slashes inside
            // included.
            let text = rest[rest.index(rest.startIndex, offsetBy: 8)..<rest.index(after: end.lowerBound)]
            filters = try ThumborFilter.list(text)
            rest = rest[end.upperBound...]
        }
        guard !rest.isEmpty else { throw Self.invalid("no original image was specified in the given URL") }
        image = String(rest)
    }

    /// `trim`, `trim:top-left`, `trim:bottom-right`, each optionally with `:N`.
    private static func trim(_ segment: Substring) -> (String, Int)? {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
        guard parts[0] == "trim", parts.count <= 3 else { return nil }
        var corner = "top-left"
        var tolerance = 0
        var index = 1
        if index < parts.count, parts[index] == "top-left" || parts[index] == "bottom-right" {
            corner = String(parts[index])
            index += 1
        }
        if index < parts.count {
            guard let value = digits(parts[index]) else { return nil }
            tolerance = value
            index += 1
        }
        return index == parts.count ? (corner, tolerance) : nil
    }

    /// `LEFTxTOP:RIGHTxBOTTOM`.
    static func crop(_ segment: Substring) -> (left: Int, top: Int, right: Int, bottom: Int)? {
        let corners = segment.split(separator: ":", omittingEmptySubsequences: false)
        guard corners.count == 2 else { return nil }
        let first = corners[0].split(separator: "x", omittingEmptySubsequences: false)
        let second = corners[1].split(separator: "x", omittingEmptySubsequences: false)
        guard first.count == 2, second.count == 2, let left = digits(first[0]), let top = digits(first[1]),
            let right = digits(second[0]), let bottom = digits(second[1])
        else { return nil }
        return (left, top, right, bottom)
    }

    /// `[-][W|orig]x[-][H|orig]`.
    ///
    /// - Throws: ``ImageServerError`` 400 for a side over `TransformSpec.maximumDimension`.
    private static func size(_ segment: Substring) throws(ImageServerError) -> (Bool, Side, Bool, Side)? {
        let sides = segment.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2 else { return nil }
        func side(_ text: Substring) throws(ImageServerError) -> (Bool, Side)? {
            let flips = text.hasPrefix("-")
            let body = flips ? text.dropFirst() : text
            if body.isEmpty { return (flips, .proportional) }
            if body == "orig" { return (flips, .original) }
            guard body.allSatisfy(\.isDigitASCII) else { return nil }
            guard let value = digits(body), value <= TransformSpec.maximumDimension else {
                throw ImageServerError(.badRequest, "invalid thumbor URL: a side is over \(TransformSpec.maximumDimension) pixels")
            }
            return (flips, value == 0 ? .proportional : .pixels(value))
        }
        guard let (flipsWidth, width) = try side(sides[0]), let (flipsHeight, height) = try side(sides[1]) else { return nil }
        return (flipsWidth, width, flipsHeight, height)
    }

    /// A non-empty run of ASCII digits, saturated at `Int32.max` (thumbor bounds crops by the
    /// source's size).
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy(\.isDigitASCII) else { return nil }
        let significant = text.drop { $0 == "0" }
        guard significant.count <= 10 else { return Int(Int32.max) }
        return min(Int(significant) ?? 0, Int(Int32.max))
    }

    /// Whether `path` is thumbor's by its own marks, when several dialects are served: a
    /// signature of thumbor's shape, or a first segment after the signature that only
    /// thumbor writes (`debug`, `meta`, `trim…`, a crop, a `fit-in` form, a size such as
    /// `300x200`, `x`, `-0x0` or `origx100`, an alignment, `smart`, `filters:…`). Two
    /// forms other dialects write too go to them: `trim/plain/…` (the native bare `trim`)
    /// and `trim:N/` followed by an imgproxy option or `plain`.
    static func claims(_ path: String) -> Bool {
        let segments = path.drop { $0 == "/" }.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard segments.count > 2 else { return false }
        if ThumborSignature.hasShape(segments[0]) { return true }
        let first = segments[1]
        let following = segments[2]
        if [
            "debug", "meta", "fit-in", "full-fit-in", "adaptive-fit-in", "adaptive-full-fit-in", "left", "center", "right", "top", "middle",
            "bottom", "smart",
        ].contains(first) || first.hasPrefix("filters:") || crop(first) != nil {
            return true
        }
        if (try? size(first)) != nil { return true }
        if trim(first) != nil {
            if first == "trim" { return following != "plain" }
            return !(following == "plain" || following.contains(":") && !following.hasPrefix("filters:") && crop(following) == nil)
        }
        return false
    }

    /// thumbor's answer to a URL it cannot read: 400, naming what is wrong.
    static func invalid(_ message: String) -> ImageServerError {
        ImageServerError(.badRequest, "invalid thumbor URL: \(message)")
    }
}
