// Times both blur paths of `Bitmap.gaussianBlurred(sigma:)` on one opaque 8-bit picture
// in one process: the integer mask (`blurred(with:)`) and Deriche's float filter
// (`blurredWithFloats`), best of five runs each, in milliseconds per megapixel.
import Foundation

let width = 3000, height = 2000
var state: UInt32 = 7
var pixels = [UInt8](repeating: 255, count: width * height * 4)
for index in 0..<pixels.count where index % 4 != 3 {
    state = state &* 1_664_525 &+ 1_013_904_223
    pixels[index] = UInt8(state >> 24)
}
let bitmap = Bitmap(width: width, height: height, pixelFormat: .rgba8, pixels: pixels)
let megapixels = Double(width * height) / 1e6

func millisecondsPerMegapixel(_ body: () -> Bitmap) -> Double {
    var best = Double.infinity
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = body()
        precondition(result.pixels.count == pixels.count)
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return best / megapixels
}

print("| sigma | taps | integer ms/MP | Deriche ms/MP | integer ÷ Deriche |")
print("|---|---|---|---|---|")
for sigma in [0.5, 1, 2, 3, 4, 6, 8, 10, 12, 14] {
    let kernel = IntegerGaussianKernel(sigma: sigma)
    let integer = millisecondsPerMegapixel { try! bitmap.blurred(with: kernel) }
    // Deriche's filter at sigma 1 for 0.5 (below 1 the float path convolves instead).
    let recursive = millisecondsPerMegapixel { try! bitmap.blurredWithFloats(sigma: max(sigma, 1), premultiplying: false) }
    print(String(format: "| %.1f | %d | %.1f | %.1f | %.2f |", sigma, kernel.taps, integer, recursive, integer / recursive))
}
