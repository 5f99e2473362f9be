import Foundation

/// A ThumbHash: a picture reduced to a few cosine terms of its lightness, colour and
/// alpha, packed into about 25 bytes, which an app stores beside the image's URL and
/// draws until the image arrives.
///
/// Create one from an image with `Image.thumbHash()`, or from stored bytes with
/// ``init(data:)`` or ``init(base64:)``; ``image()`` draws it. Unlike a ``BlurHash`` it
/// keeps alpha and the picture's approximate ``aspectRatio``. Encoding and decoding follow
/// Evan Wallace's reference implementation (the JavaScript one, in double precision), so
/// the bytes match its output for the same pixels.
public struct ThumbHash: Sendable, Hashable {
    /// The hash's bytes.
    public let bytes: [UInt8]

    /// The largest side, in pixels, the encoder reads: larger images are reduced first.
    public static let maximumSide = 100

    /// Reads a hash from its bytes, checking that it is one.
    ///
    /// - Throws: `ImageError` with `ImageError.Code.badImageData` when the bytes are
    ///   shorter than a hash's header, declare no lightness terms, or are not as many as
    ///   the header says.
    public init(data: Data) throws(ImageError) {
        let bytes = [UInt8](data)
        guard bytes.count >= 5 else {
            throw ImageError(.badImageData, "a ThumbHash has at least 5 bytes; this one has \(bytes.count)")
        }
        self.bytes = bytes
        guard bytes[3] & 7 != 0 else {
            throw ImageError(.badImageData, "the ThumbHash declares no lightness terms")
        }
        let termCount = Self.termCount(lightness) + 2 * Self.termCount((3, 3)) + (hasAlpha ? Self.termCount((5, 5)) : 0)
        let expected = headerLength + (termCount + 1) / 2
        guard bytes.count == expected else {
            throw ImageError(.badImageData, "the ThumbHash has \(bytes.count) bytes; its header needs \(expected)")
        }
    }

    /// Reads a hash from base64 text (as ``base64`` writes it; the `=` padding may be left
    /// out).
    ///
    /// - Throws: `ImageError` with `ImageError.Code.badImageData` when `base64` is not
    ///   base64, or its bytes are not a hash (see ``init(data:)``).
    public init(base64: String) throws(ImageError) {
        let padding = String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64 + padding) else {
            throw ImageError(.badImageData, "\"\(base64)\" is not base64")
        }
        try self.init(data: data)
    }

    /// Wraps bytes the encoder has just written, which are a hash by construction.
    init(encoded bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The hash's bytes as `Data`.
    public var data: Data { Data(bytes) }

    /// The hash as standard base64 text, padded: how it is usually stored and sent.
    public var base64: String { data.base64EncodedString() }

    /// The picture's approximate width divided by its height, from the hash's counts of
    /// lightness terms (so 1 for a square, 7/5 for a 4:3 landscape).
    public var aspectRatio: Double {
        let (across, down) = declaredLightness
        return Double(across) / Double(down)
    }

    /// The first 24 bits: the constant terms, the lightness scale and the alpha flag.
    var header24: Int { Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 }

    /// The next 16 bits: the short side's lightness count, the colour scales and the
    /// landscape flag.
    var header16: Int { Int(bytes[3]) | Int(bytes[4]) << 8 }

    /// Whether the hash carries alpha (and a byte of alpha constants after the header).
    var hasAlpha: Bool { bytes[2] & 0x80 != 0 }

    /// Whether the picture is wider than it is tall.
    var isLandscape: Bool { bytes[4] & 0x80 != 0 }

    /// The bytes before the varying terms.
    var headerLength: Int { hasAlpha ? 6 : 5 }

    /// The lightness terms across and down, as the header declares them (the long side
    /// has 7, or 5 with alpha).
    var declaredLightness: (across: Int, down: Int) {
        let long = hasAlpha ? 5 : 7, short = Int(bytes[3] & 7)
        return isLandscape ? (long, short) : (short, long)
    }

    /// The lightness terms across and down the encoder wrote: at least 3 each.
    var lightness: (across: Int, down: Int) {
        let (across, down) = declaredLightness
        return (max(3, across), max(3, down))
    }

    /// How many varying terms a channel of `across` × `down` terms has: those of the
    /// triangle `x · down < across · (down - y)`, less the constant one.
    static func termCount(_ size: (across: Int, down: Int)) -> Int {
        var count = 0
        for y in 0..<size.down {
            var x = 0
            while x * size.down < size.across * (size.down - y) {
                count += 1
                x += 1
            }
        }
        return count - 1
    }

    /// `x` rounded as JavaScript's `Math.round` rounds: halves up.
    static func roundedHalfUp(_ x: Double) -> Int { Int((x + 0.5).rounded(.down)) }
}
