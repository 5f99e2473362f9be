/// A rectangle of pixels in memory, rows packed with no padding.
public struct Bitmap: Sendable, Hashable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The layout of each pixel.
    public let pixelFormat: PixelFormat
    /// The pixel bytes, `height` rows of ``bytesPerRow`` bytes, top row first.
    public var pixels: [UInt8]

    /// Wraps pixel bytes that are already laid out as `pixelFormat`.
    ///
    /// - Precondition: `pixels.count == width * height * pixelFormat.bytesPerPixel`.
    public init(width: Int, height: Int, pixelFormat: PixelFormat = .rgba8, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative bitmap size")
        precondition(pixels.count == width * height * pixelFormat.bytesPerPixel, "pixel buffer size mismatch")
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.pixels = pixels
    }

    /// A bitmap of transparent black pixels, for sizes known to be small (samples,
    /// tests); it traps when the size overflows or the memory cannot be had. A request's
    /// path uses ``init(zeroedWidth:height:pixelFormat:)``, which throws instead.
    public init(width: Int, height: Int, pixelFormat: PixelFormat = .rgba8) {
        self.init(
            width: width, height: height, pixelFormat: pixelFormat,
            pixels: [UInt8](repeating: 0, count: width * height * pixelFormat.bytesPerPixel)
        )
    }

    /// A bitmap of transparent black pixels, or ``ImageError/Code/imageTooLarge`` when
    /// its size overflows or passes the machine's memory: refused before anything is
    /// allocated, so running out is an error a request answers, never a trap.
    public init(zeroedWidth width: Int, height: Int, pixelFormat: PixelFormat = .rgba8) throws(ImageError) {
        self.init(
            width: width, height: height, pixelFormat: pixelFormat,
            pixels: try [UInt8](repeating: 0, imageSized: width, height, pixelFormat.bytesPerPixel)
        )
    }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Bytes in one row.
    public var bytesPerRow: Int { width * pixelFormat.bytesPerPixel }

    /// Bytes of pixel memory: what this bitmap costs a memory cache.
    public var byteCount: Int { pixels.count }

    /// The pixel at (`x`, `y`) as 8-bit RGBA (16-bit channels are rounded to 8 bits).
    public func rgba8(x: Int, y: Int) -> RGBA8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the bitmap")
        let offset = (y * width + x) * pixelFormat.bytesPerPixel
        switch pixelFormat {
        case .rgba8:
            return RGBA8(red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2], alpha: pixels[offset + 3])
        case .rgba16:
            func channel(_ index: Int) -> UInt8 {
                let value = UInt16(pixels[offset + 2 * index]) | UInt16(pixels[offset + 2 * index + 1]) << 8
                return Bitmap.narrow(UInt16(littleEndian: value))
            }
            return RGBA8(red: channel(0), green: channel(1), blue: channel(2), alpha: channel(3))
        }
    }

    /// This bitmap with 8-bit channels (a copy-free return when it already has them).
    ///
    /// Throws ``ImageError/Code/imageTooLarge`` when the narrowed copy cannot be had.
    public func convertedToRGBA8() throws(ImageError) -> Bitmap {
        guard pixelFormat == .rgba16 else { return self }
        var narrow = try [UInt8](repeating: 0, imageSized: width, height, 4)
        pixels.withUnsafeBytes { source in
            let wide = source.bindMemory(to: UInt16.self)
            for index in 0..<narrow.count {
                narrow[index] = Bitmap.narrow(wide[index])
            }
        }
        return Bitmap(width: width, height: height, pixelFormat: .rgba8, pixels: narrow)
    }

    /// Whether any pixel is less than fully opaque.
    public var containsTransparency: Bool {
        switch pixelFormat {
        case .rgba8:
            return pixels.withUnsafeBufferPointer { buffer in
                var index = 3
                while index < buffer.count {
                    if buffer[index] != 0xFF { return true }
                    index += 4
                }
                return false
            }
        case .rgba16:
            return pixels.withUnsafeBytes { raw in
                let wide = raw.bindMemory(to: UInt16.self)
                var index = 3
                while index < wide.count {
                    if wide[index] != 0xFFFF { return true }
                    index += 4
                }
                return false
            }
        }
    }

    /// Rounds a 16-bit channel to 8 bits (65535 → 255, exact for values of the form v × 257).
    static func narrow(_ value: UInt16) -> UInt8 {
        UInt8((UInt32(value) * 255 + 32767) / 65535)
    }
}
