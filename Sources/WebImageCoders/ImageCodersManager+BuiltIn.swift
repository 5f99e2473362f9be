extension ImageCodersManager {
    /// The manager the rest of the library uses unless told otherwise: the built-in coders.
    public static let shared = ImageCodersManager()

    /// The built-in coders, in priority order from lowest to highest: JPEG, PNG, GIF,
    /// WebP, BMP, ICO and, each with its package trait, TIFF, AVIF, HEIF, JPEG XL and SVG.
    public static var builtInCoders: [any ImageCoder] {
        var coders: [any ImageCoder] = [JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder(), BMPCoder(), ICOCoder()]
        #if TIFF
        coders.append(TIFFCoder())
        #endif
        #if AVIF && HEIF
        // libheif decodes AV1 too: it gets the files libavif refuses.
        coders.append(AVIFCoder(fallback: HEIFCoder(acceptsAVIF: true)))
        #elseif AVIF
        coders.append(AVIFCoder())
        #endif
        #if HEIF
        coders.append(HEIFCoder())
        #endif
        #if JXL
        coders.append(JXLCoder())
        #endif
        #if SVG
        coders.append(SVGCoder())
        #endif
        return coders
    }

    /// Creates a manager with the built-in coders.
    public convenience init() {
        self.init(coders: ImageCodersManager.builtInCoders)
    }
}
