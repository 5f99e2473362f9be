import WebImageCore

extension Bitmap {
    /// A bitmap of one colour.
    package static func solid(_ width: Int, _ height: Int, _ colour: RGBA8) -> Bitmap {
        painted(width, height) { _, _ in colour }
    }

    /// A bitmap whose pixels come from `colour(x, y)`.
    package static func painted(_ width: Int, _ height: Int, _ colour: (Int, Int) -> RGBA8) -> Bitmap {
        // Written in place: appending a four-byte array a pixel costs an allocation a pixel,
        // which in the suite's unoptimised, sanitised build made large fixtures slow.
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            for y in 0..<height {
                for x in 0..<width {
                    let pixel = colour(x, y), offset = (y * width + x) * 4
                    buffer[offset] = pixel.red
                    buffer[offset + 1] = pixel.green
                    buffer[offset + 2] = pixel.blue
                    buffer[offset + 3] = pixel.alpha
                }
            }
            count = width * height * 4
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// A 16-bit bitmap whose channels come from `channels(x, y)`.
    package static func painted16(_ width: Int, _ height: Int, _ channels: (Int, Int) -> [UInt16]) -> Bitmap {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 8)
        for y in 0..<height {
            for x in 0..<width {
                for value in channels(x, y) { withUnsafeBytes(of: value) { pixels += $0 } }
            }
        }
        return Bitmap(width: width, height: height, pixelFormat: .rgba16, pixels: pixels)
    }

    /// The four 16-bit channels of the pixel at (`x`, `y`) of a 16-bit bitmap.
    package func channels16(x: Int, y: Int) -> [UInt16] {
        pixels.withUnsafeBytes { raw in
            let channels = raw.bindMemory(to: UInt16.self)
            let start = (y * width + x) * 4
            return Array(channels[start..<start + 4])
        }
    }
}
