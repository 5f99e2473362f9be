import WebImageCore
/// Draws APNG frames onto a canvas as their dispose and blend operations say, and hands
/// back the full-canvas picture each frame shows.
///
/// The canvas starts transparent black. Blending "over" is straight-alpha source-over:
/// colour is weighted by each side's alpha and divided by the resulting alpha, so a
/// half-transparent frame over a transparent canvas keeps its own colour.
struct APNGCompositor {
    private var canvas: Bitmap
    private var pendingDisposal: (control: APNGFrameControl, disposal: APNGFrameControl.Disposal, saved: [UInt8]?)?

    /// A transparent canvas of `size` in `pixelFormat`; throws
    /// ``ImageError/Code/imageTooLarge`` when its pixels cannot be had.
    init(size: PixelSize, pixelFormat: PixelFormat) throws(ImageError) {
        canvas = try Bitmap(zeroedWidth: size.width, height: size.height, pixelFormat: pixelFormat)
    }

    /// Disposes of the previous frame, draws `frame` at the place `control` gives, and
    /// returns the canvas as it now shows.
    ///
    /// - Precondition: `frame` has the control's size, the canvas's pixel format, and
    ///   `control` fits in the canvas.
    mutating func draw(_ frame: Bitmap, as control: APNGFrameControl) -> Bitmap {
        precondition(frame.width == control.width && frame.height == control.height && frame.pixelFormat == canvas.pixelFormat)
        if let pending = pendingDisposal {
            dispose(pending.control, pending.disposal, restoring: pending.saved)
        }
        let disposal = pendingDisposal == nil && control.disposal == .previous ? .background : control.disposal
        let saved = disposal == .previous ? region(of: control) : nil
        let rowBytes = frame.bytesPerRow
        let canvasWidth = canvas.width
        let pixelBytes = canvas.pixelFormat.bytesPerPixel
        let pixelFormat = canvas.pixelFormat
        frame.pixels.withUnsafeBytes { source in
            canvas.pixels.withUnsafeMutableBytes { destination in
                for row in 0..<control.height {
                    let from = UnsafeRawBufferPointer(rebasing: source[(row * rowBytes)..<((row + 1) * rowBytes)])
                    let start = ((control.y + row) * canvasWidth + control.x) * pixelBytes
                    let to = UnsafeMutableRawBufferPointer(rebasing: destination[start..<(start + rowBytes)])
                    switch (control.blending, pixelFormat) {
                    case (.source, _):
                        to.copyMemory(from: from)
                    case (.over, .rgba8):
                        APNGCompositor.blendOver(from.bindMemory(to: UInt8.self), onto: to.bindMemory(to: UInt8.self))
                    case (.over, .rgba16):
                        APNGCompositor.blendOver(from.bindMemory(to: UInt16.self), onto: to.bindMemory(to: UInt16.self))
                    }
                }
            }
        }
        pendingDisposal = (control, disposal, saved)
        return canvas
    }

    private func region(of control: APNGFrameControl) -> [UInt8] {
        let rowBytes = control.width * canvas.pixelFormat.bytesPerPixel
        var copy: [UInt8] = []
        copy.reserveCapacity(rowBytes * control.height)
        for row in 0..<control.height {
            let start = ((control.y + row) * canvas.width + control.x) * canvas.pixelFormat.bytesPerPixel
            copy.append(contentsOf: canvas.pixels[start..<(start + rowBytes)])
        }
        return copy
    }

    private mutating func dispose(_ control: APNGFrameControl, _ disposal: APNGFrameControl.Disposal, restoring saved: [UInt8]?) {
        guard disposal != .none else { return }
        let rowBytes = control.width * canvas.pixelFormat.bytesPerPixel
        for row in 0..<control.height {
            let start = ((control.y + row) * canvas.width + control.x) * canvas.pixelFormat.bytesPerPixel
            if let saved {
                canvas.pixels.replaceSubrange(start..<(start + rowBytes), with: saved[(row * rowBytes)..<((row + 1) * rowBytes)])
            } else {
                canvas.pixels.replaceSubrange(start..<(start + rowBytes), with: repeatElement(0, count: rowBytes))
            }
        }
    }

    /// Straight-alpha source-over of one row of RGBA pixels.
    private static func blendOver<Channel: FixedWidthInteger & UnsignedInteger>(
        _ source: UnsafeBufferPointer<Channel>,
        onto destination: UnsafeMutableBufferPointer<Channel>
    ) {
        let maximum = UInt64(Channel.max)
        var index = 0
        while index < source.count {
            let sourceAlpha = UInt64(source[index + 3])
            if sourceAlpha == maximum {
                for channel in 0..<4 { destination[index + channel] = source[index + channel] }
            } else if sourceAlpha != 0 {
                let sourceWeight = sourceAlpha * maximum
                let destinationWeight = UInt64(destination[index + 3]) * (maximum - sourceAlpha)
                let total = sourceWeight + destinationWeight
                for channel in 0..<3 {
                    let mixed =
                        UInt64(source[index + channel]) * sourceWeight
                        + UInt64(destination[index + channel]) * destinationWeight
                    destination[index + channel] = Channel((mixed + total / 2) / total)
                }
                destination[index + 3] = Channel((total + maximum / 2) / maximum)
            }
            index += 4
        }
    }
}
