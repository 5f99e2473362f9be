#if SVG
/// CSS from an SVG (a `<style>` element's text or an attribute's value, which librsvg also
/// reads with its CSS parser), reduced to what the screen looks for: CSS escapes decoded
/// (`\69` or `\i` is `i`), ASCII letters lowercased, whitespace and control characters
/// removed.
///
/// So `@\69mport`, `URL( "data:`, or a tab inside a quoted URL (which the URL parser drops)
/// cannot hide an `@import` or a `data:` URL. Comments are left in: one can only split a
/// keyword or make a URL relative (which librsvg does not load), never join one, and
/// stripping them would misread a `/*` inside a string.
struct SVGStyleText {
    /// The reduced text, as Unicode scalars.
    let reduced: [Unicode.Scalar]

    /// Reduces `css`.
    init(_ css: String) {
        var reduced: [Unicode.Scalar] = []
        var scalars = css.unicodeScalars.makeIterator()
        var pending = scalars.next()
        func keep(_ scalar: Unicode.Scalar) {
            guard scalar.value > 0x20, scalar.value != 0x7F else { return }
            reduced.append(scalar.lowercasedASCII)
        }
        while let scalar = pending {
            pending = scalars.next()
            guard scalar == "\\", let escaped = pending else {
                if scalar != "\\" { keep(scalar) }
                continue
            }
            pending = scalars.next()
            guard let first = Self.hexValue(escaped) else {
                // A backslash and a line break continue a string; any other character
                // stands for itself.
                keep(escaped)
                continue
            }
            var value = first
            var digits = 1
            while digits < 6, let next = pending, let digit = Self.hexValue(next) {
                value = value << 4 | digit
                digits += 1
                pending = scalars.next()
            }
            // One whitespace character ends the escape and belongs to it (a line break
            // or space is dropped by `keep` anyway).
            if let next = pending, next == " " || next == "\t" || next == "\n" || next == "\r" || next == "\u{0C}" {
                pending = scalars.next()
            }
            keep(value == 0 ? "\u{FFFD}" : Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        self.reduced = reduced
    }

    /// Whether the text has an `@import` rule.
    var importsStyleSheet: Bool {
        contains(Array("@import".unicodeScalars))
    }

    /// Whether the text has a `url()` whose URL is a `data:` URL, quoted or not.
    var refersToDataURL: Bool {
        let function = Array("url(".unicodeScalars), scheme = Array("data:".unicodeScalars)
        var index = 0
        while let found = firstIndex(of: function, from: index) {
            var start = found + function.count
            while start < reduced.count, reduced[start] == "\"" || reduced[start] == "'" {
                start += 1
            }
            if reduced[start...].starts(with: scheme) { return true }
            index = found + 1
        }
        return false
    }

    private func contains(_ needle: [Unicode.Scalar]) -> Bool {
        firstIndex(of: needle, from: 0) != nil
    }

    private func firstIndex(of needle: [Unicode.Scalar], from start: Int) -> Int? {
        guard reduced.count >= needle.count, start <= reduced.count - needle.count else { return nil }
        return (start...(reduced.count - needle.count)).first { reduced[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    /// The value of a hex digit.
    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f": scalar.value - 0x61 + 10
        case "A"..."F": scalar.value - 0x41 + 10
        default: nil
        }
    }
}

extension Unicode.Scalar {
    /// The scalar with `A`–`Z` lowercased, every other unchanged.
    fileprivate var lowercasedASCII: Unicode.Scalar {
        ("A"..."Z").contains(self) ? Unicode.Scalar(value + 0x20)! : self
    }
}
#endif
