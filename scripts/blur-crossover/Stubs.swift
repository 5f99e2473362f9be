// A stand-in for the package's Bitmap, for scripts/blur-crossover.sh: the blur sources
// need only its storage.
struct Bitmap {
    var width: Int
    var height: Int
    var pixelFormat: PixelFormat
    var pixels: [UInt8]
    var containsTransparency: Bool { false }

    init(width: Int, height: Int, pixelFormat: PixelFormat, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.pixels = pixels
    }
}

/// A stand-in for the package's ImageError: the blur throws it when memory cannot be had.
package struct ImageError: Error {
    package enum Code { case imageTooLarge }
    package init(_ code: Code, _ message: String) {}
}
