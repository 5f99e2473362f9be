extension ImageCodersManager {
    /// The manager the rest of the library uses unless told otherwise: the built-in coders.
    public static let shared = ImageCodersManager()

    /// The built-in coders, in priority order from lowest to highest.
    public static var builtInCoders: [any ImageCoder] {
        [JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder()]
    }

    /// Creates a manager with the built-in coders.
    public convenience init() {
        self.init(coders: ImageCodersManager.builtInCoders)
    }
}
