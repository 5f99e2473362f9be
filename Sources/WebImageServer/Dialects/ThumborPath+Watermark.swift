import Foundation
import WebImage

extension ThumborPath {
    /// The name a spec draws the watermark of the `watermark` filter at `index` (from 0) by.
    static func watermarkName(_ index: Int) -> String { "url\(index + 1)" }

    /// The largest ratio a `watermark` filter may size its image by, in percent of the
    /// image's side: 100 times the image.
    static let maximumWatermarkRatio = 10_000

    /// thumbor's `watermark(URL,X,Y,ALPHA[,W_RATIO,H_RATIO])` as the server's
    /// `watermark=NAME,GRAVITY,OPACITY[,x=…][,y=…][,scale=…][,tile=…]`, drawing the image at
    /// `URL` by `name`:
    ///
    /// - X and Y place it: pixels from the left or top, from the right or bottom when
    ///   negative (`-0` touches the edge), `Np` for N percent of the image's side
    ///   (rounded), `center`, or `repeat` (copies spread along that axis, as thumbor
    ///   lays them).
    /// - ALPHA is its transparency, 0 (as it is) to 100 (invisible): thumbor lowers every
    ///   alpha by ⌊255 · ALPHA / 100⌋, which for an opaque pixel is the opacity
    ///   (255 − ⌊255 · ALPHA / 100⌋) / 255 written here.
    /// - W_RATIO and H_RATIO fit it, its aspect kept and enlarging too, into that percent
    ///   of the image's width and height; `none` or 0 leaves that side free.
    ///
    /// - Returns: The operation and the watermark's URL; `nil` when the arguments do not
    ///   match thumbor's parameters (thumbor skips the filter).
    /// - Throws: ``ImageServerError`` 400 for a URL that is not one, or a negative ratio
    ///   or one over ``maximumWatermarkRatio`` (thumbor fails on a negative one with 500).
    static func watermark(_ filter: ThumborFilter, named name: String) throws(ImageServerError) -> (operation: String, source: URL)? {
        guard
            let arguments = filter.arguments(
                [.string, .watermarkPosition, .watermarkPosition, .positiveNumber, .watermarkRatio, .watermarkRatio], required: 4)
        else { return nil }
        var text = arguments[0]
        // thumbor's string parameter may be quoted.
        if text.count > 1, text.hasPrefix("'"), text.hasSuffix("'") { text = String(text.dropFirst().dropLast()) }
        guard let source = sourceURL(text) else { throw unsupported("watermark", "an image that is not a URL is") }
        let (column, x) = place(arguments[1], before: "left", after: "right")
        let (row, y) = place(arguments[2], before: "top", after: "bottom")
        let gravity = row + column
        let transparency = min(100, Int(arguments[3].prefix(4)) ?? 100)
        let opacity = Double(255 - 255 * transparency / 100) / 255
        var operation = ["watermark=\(name)", gravity.isEmpty ? "center" : gravity, ImgproxyOptions.number(opacity)]
        if let x { operation.append("x=\(x)") }
        if let y { operation.append("y=\(y)") }
        var ratios: [Int?] = []
        for text in arguments[4...5] {
            guard !text.isEmpty, text != "none", let ratio = Int(text.prefix(12)), ratio != 0 else {
                ratios.append(nil)
                continue
            }
            guard ratio > 0, ratio <= maximumWatermarkRatio else {
                throw unsupported("watermark", "a ratio below 0 or over \(maximumWatermarkRatio) is")
            }
            ratios.append(ratio)
        }
        if ratios.contains(where: { $0 != nil }) {
            let sides = ratios.map { $0.map { ImgproxyOptions.number(Double($0) / 100) } ?? "" }
            operation.append("scale=\(sides[0])x\(sides[1])")
        }
        switch (arguments[1] == "repeat", arguments[2] == "repeat") {
        case (true, true): operation.append("tile=spread")
        case (true, false): operation.append("tile=spreadx")
        case (false, true): operation.append("tile=spready")
        case (false, false): break
        }
        return (operation.joined(separator: ","), source)
    }

    /// One axis of a watermark's place: the native gravity's part (`before`, `after`, or
    /// empty for the centre) and the offset inwards from it (`nil` for none).
    private static func place(_ text: String, before: String, after: String) -> (String, String?) {
        guard text != "center", text != "repeat" else { return ("", nil) }
        let fromEnd = text.hasPrefix("-")
        let magnitude = fromEnd ? String(text.dropFirst()) : text
        let offset: String
        if magnitude.hasSuffix("p") {
            // Percent beyond 100 places the watermark off the image either way.
            offset = "\(min(100, Int(magnitude.dropLast().prefix(6)) ?? 100))p"
        } else {
            offset = "\(min(TransformSpec.maximumDimension, Int(magnitude.prefix(8)) ?? TransformSpec.maximumDimension))"
        }
        return (fromEnd ? after : before, offset)
    }

    /// A thumbor image's URL: percent-decoded, with `http://` put in front of one without a
    /// scheme, as thumbor's HTTP loader does; `nil` when that is not a URL with a host.
    static func sourceURL(_ text: String) -> URL? {
        guard var decoded = text.removingPercentEncoding else { return nil }
        if !decoded.lowercased().hasPrefix("http://"), !decoded.lowercased().hasPrefix("https://") { decoded = "http://" + decoded }
        guard let url = URL(string: decoded), url.host != nil else { return nil }
        return url
    }
}
