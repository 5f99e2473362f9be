import WebImage
import WebImageBMP
#if TIFF
import WebImageTIFF
#endif

extension ImageCodersManager {
    /// The coders of the BMP and ICO target and, with the `TIFF` trait, the TIFF target.
    static var formatCoders: [any ImageCoder] {
        var coders: [any ImageCoder] = [BMPCoder(), ICOCoder()]
        #if TIFF
        coders.append(TIFFCoder())
        #endif
        return coders
    }
}
