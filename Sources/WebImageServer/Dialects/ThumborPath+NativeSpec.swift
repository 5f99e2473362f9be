import Foundation
import WebImage

extension ThumborPath {
    /// The filters thumbor has that this server does not answer: a URL naming one is
    /// answered 400, naming it.
    static let unservedFilters: Set<String> = [
        "colorize", "curve", "frame", "redeye", "extract_focal", "max_age", "cover",
    ]

    /// The path written as the server's own spec, in thumbor's order of processing: trim,
    /// the manual crop, the resize (`fit-in`, or the crop to the box's aspect and the resize
    /// to it), the flips, then the filters in the URL's order, then the format and quality.
    ///
    /// A filter thumbor does not load (``ThumborConfiguration/filters``), or whose arguments
    /// do not match its parameters, is skipped, as thumbor skips it.
    ///
    /// - Returns: The spec, whether the answer depends on `Accept` (`AUTO_WEBP`), and the
    ///   images of the `watermark` filters, which the spec draws by the names
    ///   ``watermarkName(_:)`` gives their indices.
    /// - Throws: ``ImageServerError`` 400 naming a part of the URL or a filter the server
    ///   does not answer.
    func nativeSpec(
        configuration: ThumborConfiguration, accept: String?
    ) throws(ImageServerError) -> (
        spec: String, variesWithAccept: Bool, watermarks: [URL]
    ) {
        guard !debug else { throw Self.unsupported("debug", "drawing the focal points is") }
        guard !meta else { throw Self.unsupported("meta", "the JSON of the operations is") }
        var width = width
        var height = height
        if configuration.maxWidth > 0, case .pixels(let value) = width, value > configuration.maxWidth { width = .pixels(configuration.maxWidth) }
        if configuration.maxHeight > 0, case .pixels(let value) = height, value > configuration.maxHeight {
            height = .pixels(configuration.maxHeight)
        }
        // The filters of thumbor's earlier phases change the geometry.
        var stretch = false
        var noUpscale = false
        var upscale = false
        var focalPoints: [(x: Int, y: Int, weight: Int)] = []
        let filters = self.filters.filter { configuration.filters.contains($0.name) }
        for filter in filters {
            switch filter.name {
            case "stretch" where filter.arguments([], required: 0) != nil: stretch = true
            case "no_upscale" where filter.arguments([], required: 0) != nil: noUpscale = true
            case "upscale" where filter.arguments([], required: 0) != nil: upscale = true
            case "focal":
                if let arguments = filter.arguments([.string], required: 1), let point = Self.focalPoint(arguments[0]) { focalPoints.append(point) }
            default: break
            }
        }
        var operations: [String] = []
        if let trim {
            guard trim.corner == "top-left" else { throw Self.unsupported("trim", "trimming by the bottom-right colour is") }
            operations.append("trim=\(min(255, trim.tolerance))")
        }
        if let crop, crop.right > crop.left, crop.bottom > crop.top {
            operations.append("crop=\(crop.left),\(crop.top),\(crop.right - crop.left)x\(crop.bottom - crop.top)")
        }
        let focus = self.focus(of: focalPoints)
        let (resize, resultSize) = try self.resize(
            width: width, height: height, stretch: stretch, noUpscale: noUpscale, upscale: upscale, focus: focus)
        if let resize { operations.append(resize) }
        switch (flipsHorizontally, flipsVertically) {
        case (true, true): operations.append("flip=hv")
        case (true, false): operations.append("flip=h")
        case (false, true): operations.append("flip=v")
        case (false, false): break
        }
        var encoding = ThumborEncoding()
        var watermarks: [URL] = []
        for filter in filters {
            if filter.name == "watermark" {
                if let watermark = try Self.watermark(filter, named: Self.watermarkName(watermarks.count)) {
                    operations.append(watermark.operation)
                    watermarks.append(watermark.source)
                }
                continue
            }
            operations += try apply(filter, encoding: &encoding, resultSize: resultSize, width: width, height: height)
        }
        var variesWithAccept = false
        var format = encoding.format
        if format == nil, configuration.autoWebP {
            variesWithAccept = true
            if (accept ?? "").lowercased().contains("image/webp") { format = .webp }
        }
        let quality =
            encoding.quality
            ?? (format == .webp ? configuration.webPQuality : format == .avif ? configuration.avifQuality : nil) ?? configuration.quality
        var written = ["format=\(format?.rawValue ?? "auto")", "q=\(min(100, quality))"]
        if let background = encoding.background { written.append("bg=\(background)") }
        if let maxBytes = encoding.maxBytes { written.append("maxbytes=\(maxBytes)") }
        operations.append(written.joined(separator: ","))
        return (operations.joined(separator: "|"), variesWithAccept, watermarks)
    }

    /// A `focal(LEFTxTOP:RIGHTxBOTTOM)` argument as thumbor reads it: the region's centre
    /// (halves rounded down) weighted by its area; `nil` for an empty region or one thumbor
    /// does not read.
    static func focalPoint(_ text: String) -> (x: Int, y: Int, weight: Int)? {
        guard let corners = crop(Substring(text)), corners.right > corners.left, corners.bottom > corners.top else { return nil }
        let (width, height) = (corners.right - corners.left, corners.bottom - corners.top)
        let weight = width.multipliedReportingOverflow(by: height)
        guard !weight.overflow else { return nil }
        return (corners.left + width / 2, corners.top + height / 2, weight.partialValue)
    }

    /// The centre of mass of the focal points, in the source's pixels, as thumbor's crop
    /// centres on it (each coordinate rounded down); the manual crop moves the points, and
    /// drops those outside it. `nil` for none.
    func focus(of points: [(x: Int, y: Int, weight: Int)]) -> (x: Int, y: Int)? {
        var kept = points
        if let crop, crop.right > crop.left, crop.bottom > crop.top {
            kept = points.filter { (crop.left...crop.right).contains($0.x) && (crop.top...crop.bottom).contains($0.y) }
                .map { ($0.x - crop.left, $0.y - crop.top, $0.weight) }
        }
        guard !kept.isEmpty else { return nil }
        let total = kept.reduce(0.0) { $0 + Double($1.weight) }
        let x = kept.reduce(0.0) { $0 + Double($1.x) * Double($1.weight) } / total
        let y = kept.reduce(0.0) { $0 + Double($1.y) * Double($1.weight) } / total
        return (Int(x.rounded(.down)), Int(y.rounded(.down)))
    }

    /// The resize, and the size of its result when the URL fixes it.
    ///
    /// A side that follows from the other is rounded half to even, as thumbor's
    /// proportional size is (outside `fit-in`; its `fit-in` rounds halves up, as the
    /// native resize does). `full-fit-in` covers the box, enlarging; `adaptive-` turns the
    /// box to the picture's orientation.
    private func resize(
        width: Side, height: Side, stretch: Bool, noUpscale: Bool, upscale: Bool, focus: (x: Int, y: Int)?
    ) throws(ImageServerError) -> (
        String?, (width: Int, height: Int)?
    ) {
        if fitIn {
            let adaptive = self.adaptive ? ",adaptive" : ""
            if full {
                // thumbor's full-fit-in always scales, up as well as down.
                switch (width, height) {
                case (.pixels(let w), .pixels(let h)): return ("resize=\(w)x\(h),outside" + adaptive, nil)
                case (.pixels(let w), .proportional): return ("resize=\(w)", nil)
                case (.proportional, .pixels(let h)): return ("resize=x\(h)", nil)
                case (.proportional, .proportional): return (nil, nil)
                default: throw Self.unsupported("orig", "orig in full-fit-in is")
                }
            }
            // An `orig` side is the source's: the box never binds on it.
            let enlarge = upscale && !noUpscale ? "" : ",noenlarge"
            switch (width, height) {
            case (.pixels(let w), .pixels(let h)): return ("resize=\(w)x\(h),inside" + adaptive + enlarge, nil)
            case (.pixels(let w), _): return ("resize=\(w),inside,noenlarge", nil)
            case (_, .pixels(let h)): return ("resize=x\(h),inside,noenlarge", nil)
            default: return (nil, nil)
            }
        }
        let enlarge = noUpscale ? ",noenlarge" : ""
        switch (width, height) {
        case (.pixels(let w), .pixels(let h)):
            if stretch { return ("resize=\(w)x\(h),stretch" + enlarge, noUpscale ? nil : (w, h)) }
            var text = "resize=\(w)x\(h),fill" + enlarge
            if let focus {
                // Focal points stand in for the alignment.
                text += ",gravity=point:\(focus.x):\(focus.y)"
            } else if let gravity = Self.gravity(horizontal: horizontalAlignment, vertical: verticalAlignment) {
                text += ",gravity=\(gravity)"
            }
            return (text, noUpscale ? nil : (w, h))
        case (.pixels(let w), .proportional): return ("resize=\(w),halfeven" + enlarge, nil)
        case (.proportional, .pixels(let h)): return ("resize=x\(h),halfeven" + enlarge, nil)
        case (.original, .pixels), (.pixels, .original):
            throw Self.unsupported("orig", "orig beside a size, outside fit-in, is")
        default: return (nil, nil)
        }
    }

    /// The native gravity of thumbor's alignments; `nil` for the centre.
    static func gravity(horizontal: String, vertical: String) -> String? {
        let row = ["top": "top", "bottom": "bottom"][vertical] ?? ""
        let column = ["left": "left", "right": "right"][horizontal] ?? ""
        return row.isEmpty && column.isEmpty ? nil : row + column
    }

    /// The operations one filter of thumbor's last phase adds, its effect on the encoding
    /// noted in `encoding`.
    private func apply(
        _ filter: ThumborFilter, encoding: inout ThumborEncoding, resultSize: (width: Int, height: Int)?, width: Side, height: Side
    ) throws(ImageServerError) -> [String] {
        if Self.unservedFilters.contains(filter.name) {
            throw ImageServerError(.badRequest, "invalid thumbor URL: the filter \(filter.name) is not served here")
        }
        switch filter.name {
        case "quality":
            guard let arguments = filter.arguments([.positiveNumber], required: 1) else { return [] }
            encoding.quality = Int(arguments[0].prefix(4)) ?? 100
        case "format":
            guard let arguments = filter.arguments([.string], required: 1) else { return [] }
            let name = arguments[0].lowercased()
            // thumbor leaves the format to the source for a name it does not allow.
            guard ["png", "jpeg", "jpg", "gif", "webp", "avif", "heic", "heif"].contains(name) else {
                encoding.format = nil
                return []
            }
            encoding.format = ImageFormat(fileExtension: name == "heic" ? "heif" : name)
        case "max_bytes":
            guard let arguments = filter.arguments([.positiveNumber], required: 1), let bytes = Int(arguments[0]), bytes > 0 else { return [] }
            encoding.maxBytes = bytes
        case "background_color":
            guard let arguments = filter.arguments([.word], required: 1) else { return [] }
            encoding.background = arguments[0]
        case "grayscale":
            guard filter.arguments([], required: 0) != nil else { return [] }
            return ["grayscale"]
        case "blur":
            guard let arguments = filter.arguments([.positiveNonZeroNumber, .decimalNumber], required: 1),
                let radius = Double(arguments[0].prefix(6))
            else { return [] }
            let sigma = Double(arguments[1]) ?? 0
            return ["blur=\(ImgproxyOptions.number(min(500, max(0.1, sigma == 0 ? radius : abs(sigma)))))"]
        case "brightness":
            guard let arguments = filter.arguments([.number], required: 1), let delta = Int(arguments[0].prefix(6)) else { return [] }
            // thumbor adds 255 × delta / 100 (whole numbers) to every channel.
            let added = max(-255, min(255, 255 * delta / 100))
            return added == 0 ? [] : ["brightness=\(ImgproxyOptions.number(Double(added) / 255))"]
        case "contrast":
            guard let arguments = filter.arguments([.number], required: 1), let delta = Int(arguments[0].prefix(6)) else { return [] }
            // thumbor multiplies each channel's distance from the middle by
            // ((delta + 100)² / 100) / 100, in whole numbers.
            let factor = Double((delta + 100) * (delta + 100) / 100) / 100
            guard factor <= 4 else { throw Self.unsupported("contrast", "a contrast over 100 is") }
            return factor == 1 ? [] : ["contrast=\(ImgproxyOptions.number(factor))"]
        case "saturation":
            guard let arguments = filter.arguments([.decimalNumber], required: 1), let change = Double(arguments[0]) else { return [] }
            guard (0...4).contains(change) else { throw Self.unsupported("saturation", "a saturation below 0 or over 4 is") }
            return change == 1 ? [] : ["saturation=\(ImgproxyOptions.number(change))"]
        case "sharpen":
            guard let arguments = filter.arguments([.decimalNumber, .decimalNumber, .boolean], required: 3),
                let amount = Double(arguments[0]), let radius = Double(arguments[1])
            else { return [] }
            guard amount > 0 else { return [] }
            return ["sharpen=\(ImgproxyOptions.number(min(100, max(0.1, radius)))),\(ImgproxyOptions.number(min(10, amount)))"]
        case "rotate":
            guard let arguments = filter.arguments([.number], required: 1), let degrees = Int(arguments[0].prefix(8)),
                degrees.isMultiple(of: 90)
            else { return [] }
            // thumbor turns counter-clockwise; the server's rotate= turns clockwise.
            let counterClockwise = ((degrees % 360) + 360) % 360
            return counterClockwise == 0 ? [] : ["rotate=\((360 - counterClockwise) % 360)"]
        case "round_corner":
            guard let arguments = filter.arguments([.radii, .positiveNumber, .positiveNumber, .positiveNumber, .boolean], required: 4) else {
                return []
            }
            let radii = arguments[0].split(separator: "|").compactMap { Int($0.prefix(6)) }
            guard radii.count == 1 || radii[0] == radii[1] else { throw Self.unsupported("round_corner", "elliptical corners (a|b) are") }
            let transparent = ThumborFilter.isTrue(arguments[4])
            if !transparent {
                encoding.background = arguments[1...3].map { String(format: "%02x", min(255, Int($0.prefix(4)) ?? 255)) }.joined()
            }
            return radii[0] == 0 ? [] : ["round=\(min(radii[0], TransformSpec.maximumDimension))"]
        case "fill":
            guard let arguments = filter.arguments([.word, .boolean], required: 1) else { return [] }
            // auto: the picture's mean colour (thumbor calls it the median); blur: the
            // picture blurred and stretched to the box.
            let colour = arguments[0]
            let mergesTransparency = ThumborFilter.isTrue(arguments[1])
            // full-fit-in leaves a picture covering the box: no canvas shows.
            if fitIn, full { return [] }
            if fitIn, adaptive { throw Self.unsupported("fill", "fill beside adaptive-fit-in is") }
            if fitIn, case .pixels(let w) = width, case .pixels(let h) = height {
                return ["extend=\(w)x\(h),center,bg=\(colour)"]
            }
            if fitIn { throw Self.unsupported("fill", "fill beside fit-in with one side is") }
            // Outside fit-in the picture already has the box's size: thumbor's canvas only
            // shows through its transparent pixels, when it merges them.
            guard mergesTransparency else { return [] }
            guard let resultSize else { throw Self.unsupported("fill", "fill over transparency without both sides is") }
            return ["extend=\(resultSize.width)x\(resultSize.height),center,bg=\(colour)"]
        case "proportion":
            guard let arguments = filter.arguments([.decimalNumber], required: 1), let value = Double(arguments[0]), value > 0, value <= 1
            else { return [] }
            guard let resultSize else { throw Self.unsupported("proportion", "proportion without both sides outside fit-in is") }
            let (w, h) = (Int(Double(resultSize.width) * value), Int(Double(resultSize.height) * value))
            guard w >= 1, h >= 1 else { return [] }
            return ["resize=\(w)x\(h),stretch"]
        case "rgb":
            guard let arguments = filter.arguments([.number, .number, .number], required: 3) else { return [] }
            // thumbor adds 255 × delta / 100 (whole numbers) to each channel.
            let offsets = arguments.map { max(-255, min(255, 255 * (Int($0.prefix(9)) ?? 0) / 100)) }
            guard offsets.contains(where: { $0 != 0 }) else { return [] }
            return ["rgb=" + offsets.map { ImgproxyOptions.number(Double($0) / 255) }.joined(separator: ",")]
        case "equalize":
            guard filter.arguments([], required: 0) != nil else { return [] }
            return ["equalize"]
        case "noise":
            guard let arguments = filter.arguments([.positiveNumber, .positiveNumber], required: 1), let amount = Int(arguments[0].prefix(9))
            else { return [] }
            guard amount <= 100 else { throw Self.unsupported("noise", "an amount over 100 is") }
            let seed = arguments[1].isEmpty ? 0 : Int(arguments[1].prefix(11)) ?? Int.max
            guard seed <= Int(Int32.max) else { throw Self.unsupported("noise", "a seed over 2147483647 is") }
            guard amount > 0 else { return [] }
            return ["noise=\(amount)" + (seed > 0 ? ",seed=\(seed)" : "")]
        case "convolution":
            guard let arguments = filter.arguments([.kernel, .positiveNonZeroNumber, .boolean], required: 2) else { return [] }
            let weights = arguments[0].split(separator: ";")
            let kernel = weights.compactMap { Double($0) }
            guard let columns = Int(arguments[1].prefix(3)), columns <= 9, weights.count <= ConvolvingImageTransformer.maximumWeights,
                kernel.count == weights.count, kernel.allSatisfy({ abs($0) <= 1000 })
            else { throw Self.unsupported("convolution", "a kernel over 9 × 9, or a weight over 1000, is") }
            let convolution = ConvolvingImageTransformer(kernel: kernel, columns: columns)
            guard convolution.isValid else { throw Self.unsupported("convolution", "a kernel without an odd width and height is") }
            let normalizes = arguments[2].isEmpty || ThumborFilter.isTrue(arguments[2])
            return ["convolution=\(kernel.map(ImgproxyOptions.number).joined(separator: ";")),\(columns)" + (normalizes ? "" : ",unnormalized")]
        case "autojpg":
            guard let arguments = filter.arguments([.boolean], required: 0) else { return [] }
            guard arguments[0] == "" || ThumborFilter.isTrue(arguments[0]) else { return [] }
            throw Self.unsupported("autojpg", "writing an opaque PNG as JPEG (autojpg) is")
        default:
            // stretch, no_upscale, upscale and focal act on the geometry; strip_exif and strip_icc
            // ask for what every result already is (no EXIF, no profile); thumbor skips a
            // name it does not know.
            break
        }
        return []
    }

    /// The answer to a part of a thumbor URL this server does not serve: 400, naming it.
    static func unsupported(_ part: String, _ what: String) -> ImageServerError {
        ImageServerError(.badRequest, "invalid thumbor URL: \(part): \(what) not supported here")
    }
}
