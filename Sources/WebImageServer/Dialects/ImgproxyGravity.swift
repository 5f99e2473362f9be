/// A gravity of imgproxy's options: a compass point with offsets, `sm` (smart) or
/// `fp:X:Y` (a focus point).
struct ImgproxyGravity: Sendable, Equatable {
    /// imgproxy's name: `ce`, `no`, `so`, `ea`, `we`, `noea`, `nowe`, `soea`, `sowe`, `sm`
    /// or `fp`.
    var type = "ce"
    /// The X offset (pixels) or, for `fp`, the focus point's X as a fraction of the width.
    var x = 0.0
    /// The Y offset (pixels) or, for `fp`, the focus point's Y as a fraction of the height.
    var y = 0.0

    /// The native gravity names of imgproxy's compass points.
    static let nativeNames = [
        "ce": "center", "no": "top", "so": "bottom", "ea": "right", "we": "left", "noea": "topright", "nowe": "topleft",
        "soea": "bottomright", "sowe": "bottomleft",
    ]

    /// Reads `type[:x[:y]]` from `arguments`, as imgproxy does: `sm` takes no offset, `fp`
    /// takes exactly two from 0 to 1, a compass point up to two.
    ///
    /// - Parameter allowed: the types this option takes.
    /// - Throws: ``ImageServerError`` 404 naming `option` when an argument is wrong.
    init(_ arguments: some Collection<String>, option: String, allowed: Set<String>) throws(ImageServerError) {
        let arguments = Array(arguments)
        guard let first = arguments.first, allowed.contains(first) else {
            throw ImgproxyOptions.invalid(option, "the gravity is one of \(allowed.sorted().joined(separator: ", "))")
        }
        type = first
        switch first {
        case "sm":
            guard arguments.count == 1 else { throw ImgproxyOptions.invalid(option, "sm takes no offset") }
        case "fp":
            guard arguments.count == 3, let x = Double(arguments[1]), let y = Double(arguments[2]), (0...1).contains(x), (0...1).contains(y)
            else { throw ImgproxyOptions.invalid(option, "fp takes X and Y, each from 0 to 1") }
            (self.x, self.y) = (x, y)
        default:
            guard arguments.count <= 3 else { throw ImgproxyOptions.invalid(option, "a gravity takes at most two offsets") }
            for (index, text) in arguments.dropFirst().enumerated() {
                guard let offset = Double(text), offset.isFinite else { throw ImgproxyOptions.invalid(option, "an offset is a number") }
                if index == 0 { x = offset } else { y = offset }
            }
        }
    }

    /// The centre, imgproxy's default.
    init() {}

    /// The native anchor: a gravity name, `fp:X:Y` or `smart`; a compass point with an
    /// offset is not expressible yet.
    ///
    /// - Throws: ``ImageServerError`` 400 naming `option` for an offset.
    func native(option: String) throws(ImageServerError) -> String {
        switch type {
        case "sm": return "smart"
        case "fp": return "fp:\(ImgproxyOptions.number(x)):\(ImgproxyOptions.number(y))"
        default:
            guard x == 0, y == 0 else { throw ImgproxyOptions.unsupported(option, "gravity offsets") }
            return Self.nativeNames[type] ?? "center"
        }
    }
}
