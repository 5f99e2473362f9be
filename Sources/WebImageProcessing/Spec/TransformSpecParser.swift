import Foundation
import WebImageCoders
import WebImageCore

/// Reads the operations of a ``TransformSpec`` one at a time.
struct TransformSpecParser {
    /// Turns an overlay's name into an image, when the caller allows overlays.
    let overlay: ((String) throws -> Image)?

    /// The names of the operations, for the error about an unknown one.
    static let operationNames = [
        "resize", "crop", "round", "circle", "rotate", "flip", "tint", "grayscale", "brightness",
        "contrast", "saturation", "blur", "sharpen", "overlay", "pad", "extend", "pixelate", "trim", "rgb", "equalize", "noise",
        "convolution", "format",
    ]

    /// The transformer for one operation.
    func transformer(named name: String, arguments: [String]) throws(TransformSpecError) -> any ImageTransformer {
        var reader = ArgumentReader(operation: name, arguments: arguments)
        let transformer: any ImageTransformer
        switch name {
        case "resize": transformer = try resize(&reader)
        case "crop": transformer = try crop(&reader)
        case "round": transformer = try round(&reader)
        case "circle": transformer = CircleImageTransformer(border: try reader.border())
        case "rotate":
            let degrees = try reader.number(reader.positional("an angle in degrees, clockwise"), in: -3600...3600)
            transformer = RotatingImageTransformer(
                degrees: degrees, fitsCanvas: !reader.flag("keep"), background: try reader.colour(named: "bg") ?? .clear
            )
        case "flip":
            let axes = try reader.positional("h, v or hv")
            guard ["h", "v", "hv", "vh"].contains(axes) else {
                throw reader.error(axes, "flip takes h (left to right), v (top to bottom) or hv (both)")
            }
            transformer = FlippingImageTransformer(horizontal: axes.contains("h"), vertical: axes.contains("v"))
        case "tint":
            let colour = try reader.colour(reader.positional("a colour"))
            let mode = reader.optionalPositional().map { $0.lowercased() }
            guard let blend = TintBlendMode(rawValue: mode ?? "normal") else {
                throw reader.error(mode ?? "", "the blend mode is one of \(TintBlendMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            transformer = TintImageTransformer(colour: colour, blendMode: blend)
        case "grayscale", "greyscale": transformer = GrayscaleImageTransformer()
        case "brightness":
            transformer = ColorControlsImageTransformer(brightness: try reader.number(reader.positional("-1 to 1"), in: -1...1))
        case "contrast":
            transformer = ColorControlsImageTransformer(contrast: try reader.number(reader.positional("0 to 4"), in: 0...4))
        case "saturation":
            transformer = ColorControlsImageTransformer(saturation: try reader.number(reader.positional("0 to 4"), in: 0...4))
        case "blur":
            let sigma = try reader.number(reader.positional("a sigma in pixels"), in: 0.1...500)
            transformer = GaussianBlurImageTransformer(sigma: sigma)
        case "sharpen":
            let sigma = try reader.number(reader.positional("a sigma in pixels"), in: 0.1...100)
            let amount =
                try reader.optionalPositional().map { argument throws(TransformSpecError) in
                    try reader.number(argument, in: 0...10)
                } ?? 1
            transformer = SharpeningImageTransformer(sigma: sigma, amount: amount)
        case "overlay": transformer = try overlay(&reader)
        case "pad": transformer = try pad(&reader)
        case "extend":
            let size = try reader.size(reader.positional("the canvas WIDTHxHEIGHT"))
            let gravity = try reader.gravity(reader.optionalPositional() ?? "center")
            let fillsWithMeanColour = reader.value(named: "bg") { $0.lowercased() == "auto" }
            let fillsWithBlurredPicture = reader.value(named: "bg") { $0.lowercased() == "blur" }
            var extend = ExtendingImageTransformer(size: size, gravity: gravity, background: try reader.colour(named: "bg") ?? .clear)
            extend.fillsWithMeanColour = fillsWithMeanColour
            extend.fillsWithBlurredPicture = fillsWithBlurredPicture
            transformer = extend
        case "rgb":
            var offsets: [Double] = []
            for channel in ["red", "green", "blue"] {
                offsets.append(try reader.number(reader.positional("the \(channel) offset, -1 to 1"), in: -1...1))
            }
            transformer = ChannelOffsetImageTransformer(red: offsets[0], green: offsets[1], blue: offsets[2])
        case "equalize": transformer = HistogramEqualizingImageTransformer()
        case "noise":
            let amount = try reader.integer(reader.positional("an amount in 8-bit levels, 0 to 100"), in: 0...100)
            let seed =
                try reader.value(named: "seed").map { argument throws(TransformSpecError) in
                    try reader.integer(argument, in: 0...Int(Int32.max), named: "seed")
                } ?? 0
            transformer = NoiseImageTransformer(amount: amount, seed: UInt32(seed))
        case "convolution": transformer = try convolution(&reader)
        case "pixelate":
            transformer = PixelatingImageTransformer(
                blockSize: try reader.integer(reader.positional("a block size in pixels"), in: 1...TransformSpec.maximumDimension))
        case "trim":
            let threshold = try reader.optionalPositional().map { argument throws(TransformSpecError) in
                try reader.integer(argument, in: 0...255)
            }
            transformer = TrimmingImageTransformer(threshold: threshold ?? TrimmingImageTransformer.defaultThreshold)
        default:
            throw TransformSpecError(
                operation: name,
                message: "unknown operation; the operations are \(Self.operationNames.joined(separator: ", "))"
            )
        }
        try reader.finish()
        return transformer
    }

    /// The output format and options of `format=`.
    func encoding(_ arguments: [String]) throws(TransformSpecError) -> (ImageFormat?, ImageEncodeOptions) {
        var reader = ArgumentReader(operation: "format", arguments: arguments)
        let writable = ImageFormat.allCases.filter(ImageCodersManager.shared.canEncode(to:)).map(\.rawValue)
        let name = try reader.positional("a format: \(writable.joined(separator: ", ")) or auto").lowercased()
        var format: ImageFormat?
        if name != "auto" {
            guard let named = ImageFormat(fileExtension: name), ImageCodersManager.shared.canEncode(to: named) else {
                throw reader.error(name, "the format is one of \(writable.joined(separator: ", ")), or auto (from the output file's name)")
            }
            format = named
        }
        var options = ImageEncodeOptions()
        if let quality = try reader.value(named: "q") {
            options.quality = try reader.number(quality, in: 0...100, named: "q") / 100
        }
        options.lossless = reader.flag("lossless")
        options.background = try reader.colour(named: "bg")
        if let box = try reader.value(named: "max") {
            options.maxPixelSize = try reader.size(box, named: "max")
        }
        if let bytes = try reader.value(named: "maxbytes") {
            options.maxFileSize = try reader.byteCount(bytes)
        }
        if let icc = try reader.value(named: "icc") {
            guard let handling = ColorProfileHandling(rawValue: icc.lowercased()) else {
                throw reader.error(icc, "icc= is srgb (convert to sRGB and drop the profile, the default) or keep")
            }
            options.colorProfile = handling
        }
        if let gainMap = try reader.value(named: "gainmap") {
            guard ["keep", "drop"].contains(gainMap.lowercased()) else {
                throw reader.error(gainMap, "gainmap= is keep (write an Ultra HDR JPEG's gain map back, the default) or drop")
            }
            options.keepsGainMap = gainMap.lowercased() == "keep"
        }
        try reader.finish()
        return (format, options)
    }

    private func resize(_ reader: inout ArgumentReader) throws(TransformSpecError) -> ResizingImageTransformer {
        let sizeText = try reader.positional("WIDTH, xHEIGHT or WIDTHxHEIGHT")
        let (width, height) = try reader.dimensions(sizeText)
        var mode = ResizingImageTransformer.ContentMode.aspectFit
        for (word, contentMode) in [
            ("fit", .aspectFit), ("fill", .aspectFill), ("stretch", .fill), ("inside", .inside), ("auto", .auto), ("outside", .outside),
        ]
            as [(String, ResizingImageTransformer.ContentMode)] where reader.flag(word)
        {
            mode = contentMode
        }
        var resize = ResizingImageTransformer(
            width: width, height: height, contentMode: mode,
            allowsEnlarging: !reader.flag("noenlarge"), background: try reader.colour(named: "bg") ?? .clear
        )
        resize.turnsBoxToPicture = reader.flag("adaptive")
        if resize.turnsBoxToPicture, width == nil || height == nil {
            throw TransformSpecError(operation: "resize", message: "adaptive turns a box: it needs both sides")
        }
        resize.roundsHalvesToEven = reader.flag("halfeven")
        let smart = try reader.smartCrop()
        if let anchor = try reader.value(named: "gravity") {
            guard smart == nil else { throw reader.error("gravity=\(anchor)", "smart and gravity= do not go together") }
            guard mode == .aspectFill || mode == .auto, width != nil, height != nil else {
                throw reader.error("gravity=\(anchor)", "gravity= applies to fill (or auto) with both sides")
            }
            resize.anchor = try reader.anchor(anchor)
        }
        if let smart {
            guard mode == .aspectFill || mode == .auto, width != nil, height != nil else {
                throw TransformSpecError(operation: "resize", message: "smart applies to fill (or auto) with both sides")
            }
            resize.anchor = .smart(smart)
        }
        return resize
    }

    private func crop(_ reader: inout ArgumentReader) throws(TransformSpecError) -> CroppingImageTransformer {
        let first = try reader.positional("WIDTHxHEIGHT[,GRAVITY] or X,Y,WIDTHxHEIGHT")
        if first.lowercased().contains("x") {
            let size = try reader.size(first)
            if let smart = try reader.smartCrop() {
                return CroppingImageTransformer(size: size, anchor: .smart(smart))
            }
            let positional = reader.optionalPositional()
            let named = try reader.value(named: "gravity")
            if positional != nil, named != nil {
                throw reader.error("gravity=\(named ?? "")", "the gravity is given twice")
            }
            switch try reader.anchor(positional ?? named ?? "center") {
            case let .gravity(gravity): return CroppingImageTransformer(size: size, gravity: gravity)
            case let anchor: return CroppingImageTransformer(size: size, anchor: anchor)
            }
        }
        let x = try reader.integer(first, in: 0...Int(Int32.max))
        let y = try reader.integer(reader.positional("the top edge Y"), in: 0...Int(Int32.max))
        let size = try reader.size(reader.positional("the size WIDTHxHEIGHT"))
        return CroppingImageTransformer(x: x, y: y, size: size)
    }

    /// `convolution=K;K;…,COLUMNS[,unnormalized]`: an odd width and height, at most
    /// ``ConvolvingImageTransformer/maximumWeights`` weights, each from -1000 to 1000.
    private func convolution(_ reader: inout ArgumentReader) throws(TransformSpecError) -> ConvolvingImageTransformer {
        let text = try reader.positional("the kernel's weights, separated by ;")
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count <= ConvolvingImageTransformer.maximumWeights else {
            throw reader.error(text, "a kernel has at most \(ConvolvingImageTransformer.maximumWeights) weights")
        }
        var kernel: [Double] = []
        for part in parts { kernel.append(try reader.number(String(part), in: -1000...1000)) }
        let columns = try reader.integer(reader.positional("the kernel's width"), in: 1...9)
        let convolution = ConvolvingImageTransformer(kernel: kernel, columns: columns, normalizes: !reader.flag("unnormalized"))
        guard convolution.isValid else {
            throw reader.error(text, "a kernel is an odd number of rows of an odd number of columns, at most 9 × 9")
        }
        return convolution
    }

    /// `pad=N` or `pad=T,R,B,L`, with an optional `bg=COLOUR`.
    private func pad(_ reader: inout ArgumentReader) throws(TransformSpecError) -> PaddingImageTransformer {
        var sides: [Int] = []
        while let argument = reader.optionalPositional() {
            sides.append(try reader.integer(argument, in: 0...TransformSpec.maximumDimension))
        }
        guard sides.count == 1 || sides.count == 4 else {
            throw TransformSpecError(operation: "pad", message: "pad takes one width for every side, or four: top, right, bottom, left")
        }
        if sides.count == 1 { sides = Array(repeating: sides[0], count: 4) }
        return PaddingImageTransformer(
            top: sides[0], right: sides[1], bottom: sides[2], left: sides[3], background: try reader.colour(named: "bg") ?? .clear)
    }

    private func round(_ reader: inout ArgumentReader) throws(TransformSpecError) -> RoundedCornersImageTransformer {
        let radius = try reader.number(reader.positional("a radius in pixels"), in: 0...Double(TransformSpec.maximumDimension))
        var corners: ImageCorners = []
        for (name, corner) in ImageCorners.names where reader.flag(name) {
            corners.insert(corner)
        }
        return RoundedCornersImageTransformer(radius: radius, corners: corners.isEmpty ? .all : corners, border: try reader.border())
    }

    private func overlay(_ reader: inout ArgumentReader) throws(TransformSpecError) -> OverlayImageTransformer {
        let name = try reader.positional("the overlay's name")
        guard let overlay else {
            throw reader.error(name, "overlays are not available here")
        }
        let image: Image
        do {
            image = try overlay(name)
        } catch {
            throw reader.error(name, "cannot load the overlay: \(error)")
        }
        let gravity = try reader.gravity(reader.optionalPositional() ?? "bottomright")
        let x = try reader.value(named: "x").map { argument throws(TransformSpecError) in try overlayOffset(argument, named: "x", reader) }
        let y = try reader.value(named: "y").map { argument throws(TransformSpecError) in try overlayOffset(argument, named: "y", reader) }
        let opacity =
            try reader.value(named: "opacity").map { argument throws(TransformSpecError) in
                try reader.number(argument, in: 0...1, named: "opacity")
            } ?? 1
        var transformer = OverlayImageTransformer(
            overlay: image, name: name, gravity: gravity, offsetX: x?.pixels ?? 0, offsetY: y?.pixels ?? 0, opacity: opacity)
        transformer.offsetXPercent = x?.percent ?? 0
        transformer.offsetYPercent = y?.percent ?? 0
        if let scale = try reader.value(named: "scale") {
            let sides = scale.split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            /// One side's fraction, `nil` when it is left out.
            func fraction(_ text: String) throws(TransformSpecError) -> Double? {
                text.isEmpty ? nil : try reader.number(text, in: 0.001...100, named: "scale")
            }
            let width = try fraction(sides[0])
            let height = sides.count > 1 ? try fraction(sides[1]) : width
            guard width != nil || height != nil else {
                throw reader.error(scale, "scale is FRACTION, WIDTHxHEIGHT, WIDTHx or xHEIGHT, fractions of the image's sides")
            }
            transformer.scale = OverlayScale(width: width, height: height)
        }
        if let tiling = try reader.value(named: "tile") {
            switch tiling.lowercased() {
            case "spread": transformer.tiling = .spread(horizontal: true, vertical: true)
            case "spreadx": transformer.tiling = .spread(horizontal: true, vertical: false)
            case "spready": transformer.tiling = .spread(horizontal: false, vertical: true)
            case "grid": transformer.tiling = .grid
            default: throw reader.error(tiling, "tile is spread, spreadx, spready or grid")
            }
        }
        return transformer
    }

    /// An overlay's `x=` or `y=`: pixels, or `Np`, N percent of the image's side.
    private func overlayOffset(
        _ text: String, named name: String, _ reader: ArgumentReader
    ) throws(TransformSpecError) -> (pixels: Int, percent: Double) {
        if text.hasSuffix("p") {
            return (0, try reader.number(String(text.dropLast()), in: -100...100, named: name))
        }
        return (try reader.integer(text, in: -TransformSpec.maximumDimension...TransformSpec.maximumDimension, named: name), 0)
    }
}
