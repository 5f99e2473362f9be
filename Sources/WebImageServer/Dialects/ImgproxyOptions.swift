import Foundation
import WebImage

/// imgproxy's processing options as a request sets them: each option segment, in order,
/// overwrites what it names (later segments win, a preset's options land where the preset
/// is named), with imgproxy's defaults for what no segment names — fit, no enlarging,
/// centre gravity, auto-rotation, metadata stripped but copyright kept, the source's
/// format. ``nativeSpec(configuration:)`` then writes them as the server's own spec.
struct ImgproxyOptions: Sendable, Equatable {
    var resizingType = "fit"
    var width = 0
    var height = 0
    var minWidth = 0
    var minHeight = 0
    var zoomX = 1.0
    var zoomY = 1.0
    var dpr = 1.0
    var enlarge = false
    var extend = false
    var extendGravity: ImgproxyGravity?
    var extendAspectRatio = false
    var gravity = ImgproxyGravity()
    var cropWidth = 0.0
    var cropHeight = 0.0
    var cropGravity: ImgproxyGravity?
    var trimThreshold: Double?
    var trimOptionsGiven = false
    var padding = [0, 0, 0, 0]
    var autoRotate = true
    var rotate = 0
    var background: String?
    var blur = 0.0
    var sharpen = 0.0
    var pixelate = 0
    var watermarkOpacity = 0.0
    var watermarkPosition = "ce"
    var watermarkOffsetX = 0.0
    var watermarkOffsetY = 0.0
    var watermarkScale = 0.0
    var stripMetadata = true
    var keepCopyright = true
    var stripColorProfile = true
    var enforceThumbnail = false
    var quality = 0
    var formatQualities: [ImageFormat: Int] = [:]
    var maxBytes = 0
    var format: ImageFormat?
    var skipProcessing: [ImageFormat] = []
    var raw = false
    var cacheBuster = ""
    var expires: Int?
    var filename = ""
    var returnAttachment = false
    /// The presets applied, in order, so that one is not applied inside itself.
    var usedPresets: [String] = []

    /// The options imgproxy has only in its Pro version, full and short names.
    static let proOptions: Set<String> = [
        "resizing_algorithm", "ra", "adjust", "a", "brightness", "br", "contrast", "co", "saturation", "sa", "monochrome", "mc",
        "duotone", "dt", "unsharp_masking", "ush", "blur_detections", "bd", "draw_detections", "dd", "colorize", "col", "gradient", "gr",
        "watermark_url", "wmu", "watermark_text", "wmt", "watermark_size", "wms", "watermark_rotate", "wmr", "watermark_shadow", "wmsh",
        "style", "st", "crop_aspect_ratio", "crop_ar", "car", "page", "pg", "pages", "pgs", "disable_animation", "da",
        "video_thumbnail_second", "vts", "video_thumbnail_keyframes", "vtk", "video_thumbnail_tile", "vtt", "video_thumbnail_animation",
        "vta", "fallback_image_url", "fiu", "hashsum", "hs", "autoquality", "aq", "jpeg_options", "jpgo", "png_options", "pngo",
        "webp_options", "webpo", "avif_options", "avifo", "flip", "fl", "background_alpha", "bga", "dpi", "objects_position", "obj_pos",
        "op", "trim_transparency", "crop_by_objects", "cbo", "strip_color_profile_deprecated", "zoom_aspect_ratio",
    ]

    /// imgproxy's security options, answered as imgproxy answers them when
    /// `IMGPROXY_ALLOW_SECURITY_OPTIONS` is off.
    static let securityOptions: Set<String> = [
        "max_src_resolution", "msr", "max_src_file_size", "msfs", "max_animation_frames", "maf", "max_animation_frame_resolution",
        "mafr", "max_result_dimension", "mrd",
    ]

    private static let compass: Set<String> = ["ce", "no", "so", "ea", "we", "noea", "nowe", "soea", "sowe"]

    /// Applies one option segment.
    ///
    /// - Parameter presets: imgproxy's presets, for `preset`/`pr`.
    /// - Throws: ``ImageServerError`` 404 for an unknown option, a bad argument or an
    ///   expired URL (imgproxy's answers), naming the option.
    mutating func apply(_ option: ImgproxyPath.Option, presets: [String: [ImgproxyPath.Option]]) throws(ImageServerError) {
        let name = option.name
        let arguments = option.arguments
        func maxArguments(_ count: Int) throws(ImageServerError) {
            guard arguments.count <= count else { throw Self.invalid(name, "takes at most \(count) arguments") }
        }
        let first = arguments.first ?? ""
        switch name {
        case "resize", "rs":
            try maxArguments(8)
            if !first.isEmpty { try applyResizingType(first, option: name) }
            if arguments.count > 1 { try applySize(Array(arguments.dropFirst()), option: name) }
        case "size", "s": try applySize(arguments, option: name)
        case "resizing_type", "rt":
            try maxArguments(1)
            try applyResizingType(first, option: name)
        case "width", "w": width = try Self.nonNegativeInteger(arguments, option: name)
        case "height", "h": height = try Self.nonNegativeInteger(arguments, option: name)
        case "min-width", "mw": minWidth = try Self.nonNegativeInteger(arguments, option: name)
        case "min-height", "mh": minHeight = try Self.nonNegativeInteger(arguments, option: name)
        case "zoom", "z":
            try maxArguments(2)
            zoomX = try Self.positiveNumber(first, option: name)
            zoomY = arguments.count > 1 ? try Self.positiveNumber(arguments[1], option: name) : zoomX
        case "dpr":
            try maxArguments(1)
            dpr = try Self.positiveNumber(first, option: name)
        case "enlarge", "el": enlarge = try Self.bool(arguments, option: name)
        case "extend", "ex": (extend, extendGravity) = try Self.extend(arguments, option: name)
        case "extend_aspect_ratio", "extend_ar", "exar": (extendAspectRatio, _) = try Self.extend(arguments, option: name)
        case "gravity", "g": gravity = try ImgproxyGravity(arguments, option: name, allowed: Self.compass.union(["sm", "fp"]))
        case "crop", "c":
            try maxArguments(5)
            cropWidth = try Self.nonNegativeNumber(first, option: name)
            if arguments.count > 1 { cropHeight = try Self.nonNegativeNumber(arguments[1], option: name) }
            if arguments.count > 2 {
                cropGravity = try ImgproxyGravity(arguments.dropFirst(2), option: name, allowed: Self.compass.union(["sm", "fp"]))
            }
        case "trim", "t":
            try maxArguments(4)
            if first.isEmpty {
                trimThreshold = nil
            } else {
                guard let threshold = Double(first), threshold.isFinite else { throw Self.invalid(name, "the threshold is a number") }
                trimThreshold = threshold
            }
            trimOptionsGiven = arguments.dropFirst().contains { !$0.isEmpty }
        case "padding", "pd":
            try maxArguments(4)
            var sides = padding
            for (index, text) in arguments.enumerated() where !text.isEmpty {
                sides[index] = try Self.nonNegativeInteger([text], option: name)
            }
            // CSS order: a missing right copies the top, a missing bottom the top, a
            // missing left the right.
            if arguments.count < 2 || arguments[1].isEmpty { sides[1] = sides[0] }
            if arguments.count < 3 || arguments[2].isEmpty { sides[2] = sides[0] }
            if arguments.count < 4 || arguments[3].isEmpty { sides[3] = sides[1] }
            padding = sides
        case "auto_rotate", "ar": autoRotate = try Self.bool(arguments, option: name)
        case "rotate", "rot":
            try maxArguments(1)
            guard let angle = Int(first), angle.isMultiple(of: 90) else {
                throw Self.invalid(name, "the angle is a multiple of 90")
            }
            rotate = angle
        case "background", "bg": background = try Self.colour(arguments, option: name)
        case "blur", "bl":
            try maxArguments(1)
            blur = try Self.positiveNumber(first, option: name)
        case "sharpen", "sh":
            try maxArguments(1)
            sharpen = try Self.positiveNumber(first, option: name)
        case "pixelate", "pix": pixelate = try Self.nonNegativeInteger(arguments, option: name)
        case "watermark", "wm":
            try maxArguments(7)
            guard let opacity = Double(first), (0...1).contains(opacity) else {
                throw Self.invalid(name, "the opacity is from 0 to 1")
            }
            watermarkOpacity = opacity
            if arguments.count > 1, !arguments[1].isEmpty {
                guard Self.compass.union(["re"]).contains(arguments[1]) else {
                    throw Self.invalid(name, "the position is one of ce, no, so, ea, we, noea, nowe, soea, sowe, re")
                }
                watermarkPosition = arguments[1]
            }
            var numbers: [Double] = []
            for text in arguments.dropFirst(2) {
                guard text.isEmpty || Double(text)?.isFinite == true else { throw Self.invalid(name, "an offset or scale is a number") }
                numbers.append(Double(text) ?? 0)
            }
            guard numbers.dropFirst(3).allSatisfy({ $0 == 0 }) else {
                throw Self.unsupported("watermark", "imgproxy Pro's watermark arguments beyond the scale are")
            }
            guard numbers.count < 3 || numbers[2] >= 0 else { throw Self.invalid(name, "the scale is 0 or more") }
            watermarkOffsetX = numbers.first ?? 0
            watermarkOffsetY = numbers.count > 1 ? numbers[1] : 0
            watermarkScale = numbers.count > 2 ? numbers[2] : 0
        case "strip_metadata", "sm": stripMetadata = try Self.bool(arguments, option: name)
        case "keep_copyright", "kcr": keepCopyright = try Self.bool(arguments, option: name)
        case "strip_color_profile", "scp": stripColorProfile = try Self.bool(arguments, option: name)
        case "enforce_thumbnail", "eth": enforceThumbnail = try Self.bool(arguments, option: name)
        case "quality", "q":
            try maxArguments(1)
            quality = try Self.quality(first, option: name, allowsZero: true)
        case "format_quality", "fq":
            guard arguments.count.isMultiple(of: 2) else { throw Self.invalid(name, "takes pairs of a format and a quality") }
            for index in stride(from: 0, to: arguments.count, by: 2) {
                guard let format = Self.format(named: arguments[index]) else { throw Self.invalid(name, "unknown format \(arguments[index])") }
                formatQualities[format] = try Self.quality(arguments[index + 1], option: name, allowsZero: false)
            }
        case "max_bytes", "mb": maxBytes = try Self.nonNegativeInteger(arguments, option: name)
        case "format", "f", "ext":
            try maxArguments(1)
            try applyFormat(first, option: name)
        case "skip_processing", "skp":
            for text in arguments {
                guard let format = Self.format(named: text) else { throw Self.invalid(name, "unknown format \(text)") }
                skipProcessing.append(format)
            }
        case "raw": raw = try Self.bool(arguments, option: name)
        case "cachebuster", "cb":
            try maxArguments(1)
            cacheBuster = first
        case "expires", "exp":
            try maxArguments(1)
            guard let time = Int(first) else { throw Self.invalid(name, "expected a time in seconds since 1970") }
            if time > 0, Double(time) < Date().timeIntervalSince1970 { throw ImgproxyPath.invalid("expired URL") }
            expires = time > 0 ? time : nil
        case "filename", "fn":
            try maxArguments(2)
            var text = first
            if arguments.count > 1, !arguments[1].isEmpty, Self.goBool(arguments[1]) {
                var encoded = Substring(text)
                while encoded.hasSuffix("=") { encoded = encoded.dropLast() }
                guard let bytes = Base64URL.decode(String(encoded)), let decoded = String(bytes: bytes, encoding: .utf8) else {
                    throw Self.invalid(name, "the name is not valid base64url")
                }
                text = decoded
            }
            filename = text
        case "return_attachment", "att": returnAttachment = try Self.bool(arguments, option: name)
        case "preset", "pr":
            for presetName in arguments {
                guard let preset = presets[presetName] else { throw Self.invalid(name, "unknown preset \(presetName)") }
                // imgproxy skips a preset named again inside itself.
                guard !usedPresets.contains(presetName) else { continue }
                usedPresets.append(presetName)
                for inner in preset { try apply(inner, presets: presets) }
            }
        default:
            if Self.securityOptions.contains(name) {
                throw ImageServerError(.notFound, "bad options: \(name): security options are not allowed")
            }
            if Self.proOptions.contains(name) {
                throw ImageServerError(.notFound, "bad options: \(name) is an imgproxy Pro option, not served here")
            }
            throw ImageServerError(.notFound, "bad options: unknown processing option \(name)")
        }
    }

    private mutating func applyResizingType(_ text: String, option: String) throws(ImageServerError) {
        guard ["fit", "fill", "fill-down", "force", "auto"].contains(text) else {
            throw Self.invalid(option, "the resizing type is fit, fill, fill-down, force or auto")
        }
        resizingType = text
    }

    /// `size`'s arguments: width, height, enlarge, then extend's.
    private mutating func applySize(_ arguments: [String], option: String) throws(ImageServerError) {
        guard arguments.count <= 7 else { throw Self.invalid(option, "takes at most 7 arguments") }
        if arguments.count > 0, !arguments[0].isEmpty { width = try Self.nonNegativeInteger([arguments[0]], option: option) }
        if arguments.count > 1, !arguments[1].isEmpty { height = try Self.nonNegativeInteger([arguments[1]], option: option) }
        if arguments.count > 2, !arguments[2].isEmpty { enlarge = try Self.bool([arguments[2]], option: option) }
        if arguments.count > 3, !arguments[3].isEmpty { (extend, extendGravity) = try Self.extend(Array(arguments.dropFirst(3)), option: option) }
    }

    private mutating func applyFormat(_ text: String, option: String) throws(ImageServerError) {
        guard let format = Self.format(named: text) else { throw Self.invalid(option, "unknown format \(text)") }
        self.format = format
    }

    /// Applies the extension after `@` or `.` in the source, as `format` (not with `raw`).
    mutating func applyExtension(_ text: String) throws(ImageServerError) {
        guard !raw else { return }
        try applyFormat(text, option: "extension")
    }

    // MARK: Arguments, read as imgproxy reads them

    /// `extend`'s arguments: a boolean, then a gravity (any but `sm`).
    private static func extend(_ arguments: [String], option: String) throws(ImageServerError) -> (Bool, ImgproxyGravity?) {
        guard arguments.count <= 4 else { throw invalid(option, "takes at most 4 arguments") }
        let enabled = try bool([arguments[0]], option: option)
        guard arguments.count > 1 else { return (enabled, nil) }
        return (enabled, try ImgproxyGravity(arguments.dropFirst(), option: option, allowed: compass.union(["fp"])))
    }

    /// A boolean as Go's `strconv.ParseBool` reads it; anything else is false, as imgproxy
    /// treats it (with a warning in its log).
    private static func bool(_ arguments: [String], option: String) throws(ImageServerError) -> Bool {
        guard arguments.count <= 1 else { throw invalid(option, "takes one argument") }
        return goBool(arguments.first ?? "")
    }

    /// Whether `text` is one of Go's true spellings.
    static func goBool(_ text: String) -> Bool {
        ["1", "t", "T", "TRUE", "true", "True"].contains(text)
    }

    private static func nonNegativeInteger(_ arguments: [String], option: String) throws(ImageServerError) -> Int {
        guard arguments.count <= 1 else { throw invalid(option, "takes one argument") }
        guard let value = Int(arguments.first ?? ""), value >= 0 else { throw invalid(option, "expected a positive whole number or 0") }
        return value
    }

    private static func nonNegativeNumber(_ text: String, option: String) throws(ImageServerError) -> Double {
        guard let value = Double(text), value.isFinite, value >= 0 else { throw invalid(option, "expected a positive number or 0") }
        return value
    }

    private static func positiveNumber(_ text: String, option: String) throws(ImageServerError) -> Double {
        guard let value = Double(text), value.isFinite, value > 0 else { throw invalid(option, "expected a positive number") }
        return value
    }

    private static func quality(_ text: String, option: String, allowsZero: Bool) throws(ImageServerError) -> Int {
        guard let value = Int(text), (allowsZero ? 0...100 : 1...100).contains(value) else {
            throw invalid(option, "the quality is from \(allowsZero ? 0 : 1) to 100")
        }
        return value
    }

    /// `background`'s arguments: empty (none), a hexadecimal colour, or red, green, blue.
    private static func colour(_ arguments: [String], option: String) throws(ImageServerError) -> String? {
        switch arguments.count {
        case 1:
            guard !arguments[0].isEmpty else { return nil }
            let hex = arguments[0].hasPrefix("#") ? String(arguments[0].dropFirst()) : arguments[0]
            guard [3, 6].contains(hex.count), hex.allSatisfy(\.isHexDigit) else { throw invalid(option, "expected RGB or RRGGBB in hexadecimal") }
            return hex.lowercased()
        case 3:
            var hex = ""
            for text in arguments {
                guard let channel = UInt8(text) else { throw invalid(option, "each channel is from 0 to 255") }
                hex += String(format: "%02x", channel)
            }
            return hex
        default: throw invalid(option, "expected a hexadecimal colour or red:green:blue")
        }
    }

    /// A format by imgproxy's name (`jpg`, `jpeg`, `png`, `webp`, `avif`, …).
    static func format(named text: String) -> ImageFormat? {
        ImageFormat(fileExtension: text)
    }

    /// imgproxy's answer to a bad argument: 404, naming the option.
    static func invalid(_ option: String, _ message: String) -> ImageServerError {
        ImageServerError(.notFound, "bad options: \(option): \(message)")
    }

    /// The answer to an option, or a form of one, this server does not serve yet: 400,
    /// naming it.
    static func unsupported(_ option: String, _ what: String) -> ImageServerError {
        ImageServerError(.badRequest, "bad options: \(option): \(what) not supported here yet")
    }

    /// `value` written short: `2` rather than `2.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
