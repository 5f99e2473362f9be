import WebImageCore

/// The arguments of one operation of a ``TransformSpec``: positional ones in order, flags
/// and `key=value` options anywhere, each taken once; ``finish()`` refuses what is left.
struct ArgumentReader {
    /// The operation's name, for errors.
    let operation: String
    private var remaining: [String]

    init(operation: String, arguments: [String]) {
        self.operation = operation
        self.remaining = arguments
    }

    /// An error about `argument`.
    func error(_ argument: String, _ message: String) -> TransformSpecError {
        TransformSpecError(operation: operation, argument: argument, message: message)
    }

    /// Takes the next positional argument (one without `=`); `expected` says what it is.
    mutating func positional(_ expected: String) throws(TransformSpecError) -> String {
        guard let argument = optionalPositional() else {
            throw TransformSpecError(operation: operation, message: "missing \(expected)")
        }
        return argument
    }

    /// Takes the next positional argument when there is one.
    mutating func optionalPositional() -> String? {
        guard let index = remaining.firstIndex(where: { !$0.contains("=") && !$0.isEmpty }) else { return nil }
        return remaining.remove(at: index)
    }

    /// Takes the flag `name` when present.
    mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(where: { $0.lowercased() == name }) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Takes the value of `name=value` when present.
    mutating func value(named name: String) throws(TransformSpecError) -> String? {
        let prefix = name + "="
        let matches = remaining.indices.filter { remaining[$0].lowercased().hasPrefix(prefix) }
        guard let index = matches.first else { return nil }
        guard matches.count == 1 else { throw error(remaining[matches[1]], "\(name)= is given twice") }
        return String(remaining.remove(at: index).dropFirst(prefix.count))
    }

    /// Takes `name=value` when `matches` accepts its value, leaving it for another reader
    /// otherwise; whether it was taken.
    mutating func value(named name: String, where matches: (String) -> Bool) -> Bool {
        let prefix = name + "="
        guard let index = remaining.firstIndex(where: { $0.lowercased().hasPrefix(prefix) && matches(String($0.dropFirst(prefix.count))) })
        else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Refuses any argument no reader took.
    func finish() throws(TransformSpecError) {
        if let extra = remaining.first {
            throw error(extra, extra.isEmpty ? "an argument is empty (two commas in a row?)" : "this argument is not understood here")
        }
    }

    /// A number within `range`.
    func number(_ text: String, in range: ClosedRange<Double>, named name: String? = nil) throws(TransformSpecError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw error(
                name.map { "\($0)=\(text)" } ?? text,
                "expected a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))")
        }
        return value
    }

    /// A whole number within `range`.
    func integer(_ text: String, in range: ClosedRange<Int>, named name: String? = nil) throws(TransformSpecError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw error(name.map { "\($0)=\(text)" } ?? text, "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `W`, `Wx`, `xH` or `WxH`, each side 1 to ``TransformSpec/maximumDimension``.
    func dimensions(_ text: String) throws(TransformSpecError) -> (Int?, Int?) {
        let sides = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map(String.init)
        let allowed = 1...TransformSpec.maximumDimension
        let message = "a size is WIDTH, xHEIGHT or WIDTHxHEIGHT in pixels, each from 1 to \(TransformSpec.maximumDimension)"
        guard (1...2).contains(sides.count) else { throw error(text, message) }
        func side(_ string: String) throws(TransformSpecError) -> Int? {
            if string.isEmpty { return nil }
            guard let value = Int(string), allowed.contains(value) else { throw error(text, message) }
            return value
        }
        let width = try side(sides[0]), height = sides.count == 2 ? try side(sides[1]) : nil
        guard width != nil || height != nil else { throw error(text, message) }
        return (width, height)
    }

    /// `WxH`, both sides given.
    func size(_ text: String, named name: String? = nil) throws(TransformSpecError) -> PixelSize {
        let (width, height) = try dimensions(text)
        guard let width, let height else {
            throw error(name.map { "\($0)=\(text)" } ?? text, "expected WIDTHxHEIGHT with both sides")
        }
        return PixelSize(width: width, height: height)
    }

    /// A gravity by name: center, top, bottom, left, right, topleft, topright, bottomleft,
    /// bottomright (case and `-` or `_` ignored).
    func gravity(_ text: String) throws(TransformSpecError) -> ImageGravity {
        let key = text.lowercased().filter { $0 != "-" && $0 != "_" }
        if key == "centre" { return .center }
        guard let gravity = ImageGravity.allCases.first(where: { $0.rawValue.lowercased() == key }) else {
            throw error(text, "the gravity is one of \(ImageGravity.allCases.map { $0.rawValue.lowercased() }.joined(separator: ", "))")
        }
        return gravity
    }

    /// A crop anchor: a gravity's name, `fp:X:Y` — a focus point, each coordinate a
    /// fraction of the picture from 0 to 1 —, or `point:X:Y`, a pixel of the picture.
    func anchor(_ text: String) throws(TransformSpecError) -> CropAnchor {
        let lower = text.lowercased()
        if lower.hasPrefix("point:") {
            let parts = lower.dropFirst(6).split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]), (0...Int(Int32.max)).contains(x), (0...Int(Int32.max)).contains(y)
            else { throw error(text, "a point is point:X:Y, in pixels of the picture from its top-left corner") }
            return .point(x: x, y: y)
        }
        guard lower.hasPrefix("fp:") else { return .gravity(try gravity(text)) }
        let parts = lower.dropFirst(3).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), (0...1).contains(x), (0...1).contains(y) else {
            throw error(text, "a focus point is fp:X:Y, each a fraction of the picture from 0 to 1")
        }
        return .focus(x: x, y: y)
    }

    /// `smart` (attention) or `smart=attention|entropy` when present.
    mutating func smartCrop() throws(TransformSpecError) -> SmartCropStrategy? {
        if flag("smart") { return .attention }
        guard let name = try value(named: "smart") else { return nil }
        guard let strategy = SmartCropStrategy(rawValue: name.lowercased()) else {
            throw error("smart=\(name)", "smart is attention (the default) or entropy")
        }
        return strategy
    }

    /// A colour: hexadecimal `RGB`, `RRGGBB` or `RRGGBBAA` (an optional `#`), or one of the
    /// names black, white, gray, red, green, blue, transparent.
    func colour(_ text: String) throws(TransformSpecError) -> RGBA8 {
        let named: [String: RGBA8] = [
            "black": .black, "white": .white, "transparent": .clear, "clear": .clear,
            "gray": RGBA8(red: 128, green: 128, blue: 128), "grey": RGBA8(red: 128, green: 128, blue: 128),
            "red": RGBA8(red: 255, green: 0, blue: 0), "green": RGBA8(red: 0, green: 128, blue: 0),
            "blue": RGBA8(red: 0, green: 0, blue: 255),
        ]
        if let colour = named[text.lowercased()] ?? RGBA8(hex: text) { return colour }
        throw error(text, "a colour is RGB, RRGGBB or RRGGBBAA in hexadecimal, or black, white, gray, red, green, blue, transparent")
    }

    /// The colour of `name=colour` when present.
    mutating func colour(named name: String) throws(TransformSpecError) -> RGBA8? {
        guard let text = try value(named: name) else { return nil }
        return try colour(text)
    }

    /// `border=W` with an optional `color=C` (black by default).
    mutating func border() throws(TransformSpecError) -> ImageBorder? {
        let colour = try colour(named: "color")
        guard let width = try value(named: "border") else {
            if colour != nil { throw TransformSpecError(operation: operation, message: "color= needs border=WIDTH") }
            return nil
        }
        return ImageBorder(
            width: try number(width, in: 0...Double(TransformSpec.maximumDimension), named: "border"),
            colour: colour ?? .black)
    }

    /// A byte count: a whole number, optionally followed by k (×1000) or m (×1000000).
    func byteCount(_ text: String) throws(TransformSpecError) -> Int {
        let lower = text.lowercased()
        var digits = Substring(lower), multiplier = 1
        if lower.hasSuffix("k") {
            digits = digits.dropLast()
            multiplier = 1000
        }
        if lower.hasSuffix("m") {
            digits = digits.dropLast()
            multiplier = 1_000_000
        }
        guard let value = Int(digits), value > 0, value <= 1 << 31 / multiplier else {
            throw error("maxbytes=\(text)", "expected a positive byte count such as 100000, 100k or 2m")
        }
        return value * multiplier
    }

    private static func format(_ value: Double) -> String {
        RoundedCornersImageTransformer.format(value)
    }
}
