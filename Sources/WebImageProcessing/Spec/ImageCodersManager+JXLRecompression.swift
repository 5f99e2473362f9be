import Foundation
import WebImageCore
#if JXL
import WebImageJXL
#endif

extension ImageCodersManager {
    /// The JPEG in `data` recompressed into JPEG XL without loss, by the coder these coders
    /// write JPEG XL with (`JXLCoder.recompress(jpeg:colorProfile:limits:)`: the same DCT
    /// coefficients, a `jbrd` box from which `djxl` rebuilds the JPEG, the metadata policy
    /// of the encoders); `nil` when the caller must decode and encode as usual: the data is
    /// not a JPEG, that coder is not the JPEG XL coder of this package (or the `JXL` trait
    /// is off), or the recompression was refused (an orientation to apply, an ICC profile
    /// that `colorProfile` converts to sRGB, colour data libjxl cannot represent, a damaged
    /// file, which that decode then reports as it would without this path).
    ///
    /// Call it only when nothing changes the pixels (`TransformSpec.keepsPixels`);
    /// the quality of the encode options does not apply (the JPEG's own compression is
    /// kept).
    public func recompressedJPEG(
        _ data: Data, colorProfile: ColorProfileHandling, limits: ImageDecodeOptions = ImageDecodeOptions()
    ) -> Data? {
        #if JXL
        guard ImageFormat(sniffing: data) == .jpeg, let coder = coders.last(where: { $0.canEncode(to: .jxl) }) as? JXLCoder else {
            return nil
        }
        return try? coder.recompress(jpeg: data, colorProfile: colorProfile, limits: limits)
        #else
        return nil
        #endif
    }
}
