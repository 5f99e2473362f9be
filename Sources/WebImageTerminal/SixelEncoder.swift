import WebImage
/// Writes DEC sixel graphics for opaque 8-bit RGBA pixels, in a 6×6×6 colour cube.
enum SixelEncoder {
    /// The cube level (0–5) nearest to an 8-bit channel value.
    static func level(_ value: UInt8) -> Int {
        (Int(value) * 5 + 127) / 255
    }

    /// The palette index of a pixel: red, green and blue levels in base 6.
    static func paletteIndex(_ pixel: RGBA8) -> Int {
        level(pixel.red) * 36 + level(pixel.green) * 6 + level(pixel.blue)
    }

    /// The complete sixel sequence, from the introducer to the string terminator.
    static func encode(_ bitmap: Bitmap) -> String {
        var indices = [UInt8](repeating: 0, count: bitmap.width * bitmap.height)
        var used = Set<Int>()
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let index = paletteIndex(bitmap.rgba8(x: x, y: y))
                indices[y * bitmap.width + x] = UInt8(index)
                used.insert(index)
            }
        }
        var output = "\u{1B}Pq\"1;1;\(bitmap.width);\(bitmap.height)"
        for index in used.sorted() {
            let percent = [index / 36, index / 6 % 6, index % 6].map { $0 * 100 / 5 }
            output += "#\(index);2;\(percent[0]);\(percent[1]);\(percent[2])"
        }
        var bandTop = 0
        while bandTop < bitmap.height {
            let bandRows = min(6, bitmap.height - bandTop)
            var colours = Set<Int>()
            for row in 0..<bandRows {
                for x in 0..<bitmap.width { colours.insert(Int(indices[(bandTop + row) * bitmap.width + x])) }
            }
            for (number, colour) in colours.sorted().enumerated() {
                if number > 0 { output += "$" }
                output += "#\(colour)"
                var sixels: [UInt8] = []
                sixels.reserveCapacity(bitmap.width)
                for x in 0..<bitmap.width {
                    var bits: UInt8 = 0
                    for row in 0..<bandRows where Int(indices[(bandTop + row) * bitmap.width + x]) == colour {
                        bits |= 1 << row
                    }
                    sixels.append(63 + bits)
                }
                output += runLengthEncoded(sixels)
            }
            output += "-"
            bandTop += 6
        }
        return output + "\u{1B}\\"
    }

    /// Sixel characters with runs of four or more written as `!count char`.
    private static func runLengthEncoded(_ sixels: [UInt8]) -> String {
        var output = ""
        var index = 0
        while index < sixels.count {
            var run = 1
            while index + run < sixels.count, sixels[index + run] == sixels[index] { run += 1 }
            let character = String(UnicodeScalar(sixels[index]))
            output += run >= 4 ? "!\(run)\(character)" : String(repeating: character, count: run)
            index += run
        }
        return output
    }
}
