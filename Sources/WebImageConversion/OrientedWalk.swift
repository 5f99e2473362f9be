import WebImageCore

/// Where each pixel of a picture turned or mirrored as an orientation says comes from in
/// the upright source: output pixel (x, y) is source pixel `origin + x · across + y · down`,
/// in bytes of packed RGB rows.
///
/// The orientations are those of libjpeg-turbo's lossless transforms, which a chain of
/// quarter turns and flips amounts to: `ImageOrientation.right` turns a quarter
/// clockwise, `ImageOrientation.left` a quarter anticlockwise, `ImageOrientation.upMirrored`
/// mirrors left to right, `ImageOrientation.leftMirrored` transposes.
struct OrientedWalk {
    /// The size of the turned picture.
    let outputSize: PixelSize
    /// The byte offset in the source of output pixel (0, 0).
    private let origin: Int
    /// The step in the source, in bytes, for one pixel to the right in the output.
    private let across: Int
    /// The step in the source, in bytes, for one row down in the output.
    private let down: Int

    /// The walk over a `sourceSize` picture of packed RGB rows turned as `orientation` says.
    init(_ orientation: ImageOrientation, sourceSize: PixelSize) {
        let (width, height) = (sourceSize.width, sourceSize.height)
        let pixel = 3, row = width * 3
        // The source corners in bytes.
        let (topLeft, topRight) = (0, (width - 1) * pixel)
        let (bottomLeft, bottomRight) = ((height - 1) * row, (height - 1) * row + (width - 1) * pixel)
        switch orientation {
        case .up: (origin, across, down) = (topLeft, pixel, row)
        case .upMirrored: (origin, across, down) = (topRight, -pixel, row)
        case .down: (origin, across, down) = (bottomRight, -pixel, -row)
        case .downMirrored: (origin, across, down) = (bottomLeft, pixel, -row)
        case .leftMirrored: (origin, across, down) = (topLeft, row, pixel)
        case .right: (origin, across, down) = (bottomLeft, -row, pixel)
        case .rightMirrored: (origin, across, down) = (bottomRight, -row, -pixel)
        case .left: (origin, across, down) = (topRight, row, -pixel)
        }
        outputSize = orientation.swapsWidthAndHeight ? PixelSize(width: height, height: width) : sourceSize
    }

    /// Copies the output's `rows` from the packed RGB `source` into `destination`, packed.
    func gather(rows: Range<Int>, from source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer) {
        let width = outputSize.width
        let source = source.assumingMemoryBound(to: UInt8.self)
        let destination = destination.assumingMemoryBound(to: UInt8.self)
        func copy(x: Int, y: Int) {
            let from = source + origin + x * across + y * down
            let to = destination + ((y - rows.lowerBound) * width + x) * 3
            to[0] = from[0]
            to[1] = from[1]
            to[2] = from[2]
        }
        if abs(down) == 3 {
            // A turn: the strip's rows are neighbouring source columns, so for each output
            // column the rows read neighbouring pixels of one source row.
            for x in 0..<width {
                for y in rows { copy(x: x, y: y) }
            }
        } else {
            for y in rows {
                for x in 0..<width { copy(x: x, y: y) }
            }
        }
    }
}
