import WebImageCore
/// What an APNG `fcTL` chunk says about one frame: where it goes on the canvas, how long
/// it shows, and how it is drawn and cleared.
struct APNGFrameControl: Sendable, Hashable {
    /// What happens to the frame's area once its time is over, before the next frame.
    enum Disposal: UInt8, Sendable {
        /// The canvas keeps the frame.
        case none = 0
        /// The frame's area is cleared to transparent black.
        case background = 1
        /// The frame's area goes back to what it was before the frame was drawn.
        case previous = 2
    }

    /// How the frame's pixels meet the canvas.
    enum Blending: UInt8, Sendable {
        /// The frame's pixels replace the canvas's, alpha included.
        case source = 0
        /// The frame is drawn over the canvas (alpha compositing).
        case over = 1
    }

    /// The byte length of an `fcTL` chunk's data.
    static let byteCount = 26

    /// The chunk's sequence number.
    let sequenceNumber: UInt32
    /// The frame's left edge on the canvas.
    let x: Int
    /// The frame's top edge on the canvas.
    let y: Int
    /// The frame's width in pixels.
    let width: Int
    /// The frame's height in pixels.
    let height: Int
    /// Seconds the frame shows.
    let duration: Double
    /// What happens to the frame's area afterwards.
    let disposal: Disposal
    /// How the frame is drawn.
    let blending: Blending

    /// Reads the 26 data bytes of an `fcTL` chunk.
    ///
    /// A delay denominator of 0 means hundredths of a second, as the APNG specification says.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` for a wrong length or unknown operations.
    init(_ data: UnsafeRawBufferPointer) throws(ImageError) {
        guard data.count == APNGFrameControl.byteCount else {
            throw ImageError(.badImageData, "an APNG fcTL chunk has \(data.count) bytes instead of 26")
        }
        sequenceNumber = data.loadBigEndianUInt32(at: 0)
        width = Int(data.loadBigEndianUInt32(at: 4))
        height = Int(data.loadBigEndianUInt32(at: 8))
        x = Int(data.loadBigEndianUInt32(at: 12))
        y = Int(data.loadBigEndianUInt32(at: 16))
        let numerator = Double(data.loadBigEndianUInt16(at: 20))
        let denominator = data.loadBigEndianUInt16(at: 22)
        duration = numerator / Double(denominator == 0 ? 100 : denominator)
        guard let disposal = Disposal(rawValue: data[24]), let blending = Blending(rawValue: data[25]) else {
            throw ImageError(.badImageData, "an APNG fcTL chunk names an unknown dispose or blend operation")
        }
        self.disposal = disposal
        self.blending = blending
    }

    /// Whether the frame's rectangle is not empty and lies inside a canvas of `size`.
    func fits(in size: PixelSize) -> Bool {
        width > 0 && height > 0 && x <= size.width - width && y <= size.height - height
    }
}
