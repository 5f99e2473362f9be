import WebImageCore

extension Image {
    /// The blue channel of the top-left pixel: the raw test images' identity.
    package var testBlue: UInt8 { bitmap.rgba8(x: 0, y: 0).blue }
}
