import WebImageCore
/// The four-letter type of a PNG chunk, held as the big-endian integer its bytes spell.
package struct PNGChunkType: RawRepresentable, Hashable, Sendable {
    package let rawValue: UInt32

    package init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The type spelled by four ASCII letters, such as `"IHDR"`.
    init(_ name: StaticString) {
        precondition(name.utf8CodeUnitCount == 4, "a chunk type has four letters")
        var value: UInt32 = 0
        for index in 0..<4 {
            value = value << 8 | UInt32(name.utf8Start[index])
        }
        rawValue = value
    }

    package static let header = PNGChunkType("IHDR")
    static let palette = PNGChunkType("PLTE")
    static let transparency = PNGChunkType("tRNS")
    static let iccProfile = PNGChunkType("iCCP")
    package static let imageData = PNGChunkType("IDAT")
    static let end = PNGChunkType("IEND")
    package static let animationControl = PNGChunkType("acTL")
    package static let frameControl = PNGChunkType("fcTL")
    package static let frameData = PNGChunkType("fdAT")
}
