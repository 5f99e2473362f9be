import Foundation
import WebImage

/// What a decode worker answers on its standard output (see ``DecodeWorker``): what the
/// request asked for, or the typed error that stopped it.
enum DecodeWorkerAnswer: Sendable {
    /// The size the header declares (`nil` when the coder reads no header) and the frames
    /// the container holds.
    case header(PixelSize?, frames: Int)
    /// The decoded image. Its pixels do not come over the socket: the worker writes them
    /// in its ``DecodeWorkerPixelFile``, the server reads them from there into the image's
    /// bitmaps.
    case image(Image)
    /// The `/info` answer's JSON.
    case info(String)
    /// The error the read threw.
    case failure(ImageError)

    /// The number that starts every answer.
    static let magic = 0x3141_5744_4945_4257

    /// The most bytes an `/info` answer's JSON may have.
    static let maxInfoBytes = 64 << 10

    /// The answer as written on the worker's standard output: its length, then its fields
    /// (an image's pixels are in the worker's ``DecodeWorkerPixelFile``, not here).
    var encoded: Data {
        var wire = DecodeWorkerWire()
        wire.write(Self.magic)
        switch self {
        case .failure(let error):
            wire.write(0)
            wire.write(error.code.rawValue)
            wire.write(error.message)
        case .header(let size, let frames):
            wire.write(1)
            wire.write(size?.width ?? -1)
            wire.write(size?.height ?? -1)
            wire.write(frames)
        case .image(let image):
            wire.write(2)
            wire.write(image.format.rawValue)
            wire.write(image.orientation.rawValue)
            wire.write(image.loopCount)
            wire.write(image.scale)
            wire.write(image.hasAlpha ? 1 : 0)
            wire.write(image.colorProfile?.data ?? Data())
            wire.write(image.frames.count)
            for frame in image.frames {
                wire.write(frame.bitmap.width)
                wire.write(frame.bitmap.height)
                wire.write(frame.bitmap.pixelFormat.rawValue)
                wire.write(frame.duration)
            }
        case .info(let json):
            wire.write(3)
            wire.write(json)
        }
        var framed = DecodeWorkerWire()
        framed.write(wire.bytes)
        return framed.bytes
    }

    /// Reads the fields of an answer (the bytes after its length) to a request made with
    /// `options`, an image's pixels from `pixels`, sealed at `pixelBytes`: an image may have
    /// no more frames, and no frame more pixels, than the options allow, and its frames no
    /// more bytes together than `pixelBytes` (the read's plan), all checked before any of
    /// them is read.
    ///
    /// - Throws: `ImageError` `.badImageData` for a message that is not such an answer,
    ///   `.imageTooLarge` for an image past the limits or the plan.
    init(fields: Data, options: ImageDecodeOptions, pixels: DecodeWorkerPixelFile, pixelBytes: Int) throws(ImageError) {
        var wire = DecodeWorkerWire(reading: fields)
        guard try wire.readInt() == Self.magic else { throw ImageError(.badImageData, "the decode worker's output is not an answer") }
        switch try wire.readInt() {
        case 0:
            let code = ImageError.Code(rawValue: try wire.readText(limit: 64)) ?? .badImageData
            self = .failure(ImageError(code, try wire.readText(limit: 4096)))
        case 1:
            let width = try wire.readInt(in: -1...Int(Int32.max)), height = try wire.readInt(in: -1...Int(Int32.max))
            let frames = try wire.readInt(in: 0...Int.max)
            self = .header(width >= 0 && height >= 0 ? PixelSize(width: width, height: height) : nil, frames: frames)
        case 2:
            self = .image(try Self.image(from: &wire, options: options, pixels: pixels, pixelBytes: pixelBytes))
        case 3:
            self = .info(try wire.readText(limit: Self.maxInfoBytes))
        case let kind:
            throw ImageError(.badImageData, "the decode worker answered an unknown kind \(kind)")
        }
    }

    /// The image the rest of `wire` describes, its pixels in `pixels`, checked against
    /// `options`' limits and `pixelBytes`.
    private static func image(
        from wire: inout DecodeWorkerWire, options: ImageDecodeOptions, pixels: DecodeWorkerPixelFile, pixelBytes: Int
    ) throws(ImageError) -> Image {
        let format = ImageFormat(rawValue: try wire.readText(limit: 64)) ?? .undefined
        let orientation = ImageOrientation(rawValue: try wire.readInt(in: 1...8)) ?? .up
        let loopCount = try wire.readInt(in: 0...Int.max)
        let scale = try wire.readDouble()
        let hasAlpha = try wire.readInt(in: 0...1) == 1
        let profileBytes = try wire.readData(limit: 64 << 20)
        let count = try wire.readInt(in: 1...max(1, options.maxFrameCount))
        var shapes: [(width: Int, height: Int, pixelFormat: PixelFormat, duration: Double)] = []
        var total = 0.0
        for _ in 0..<count {
            let width = try wire.readInt(in: 1...Int(Int32.max)), height = try wire.readInt(in: 1...Int(Int32.max))
            guard let pixelFormat = PixelFormat(rawValue: try wire.readText(limit: 64)) else {
                throw ImageError(.badImageData, "the decode worker answered an unknown pixel format")
            }
            guard width * height <= options.maxPixelCount else {
                throw ImageError(.imageTooLarge, "the decode worker answered \(width)×\(height) pixels, over the limit")
            }
            guard shapes.first.map({ $0.width == width && $0.height == height && $0.pixelFormat == pixelFormat }) ?? true else {
                throw ImageError(.badImageData, "the decode worker answered a frame of the wrong size")
            }
            total += Double(width) * Double(height) * Double(pixelFormat.bytesPerPixel)
            guard total <= Double(pixelBytes) else {
                throw ImageError(.imageTooLarge, "the decode worker answered more pixels than the \(pixelBytes) bytes planned")
            }
            shapes.append((width, height, pixelFormat, try wire.readDouble()))
        }
        // Every size is now known to fit the plan: the reads start.
        var frames: [ImageFrame] = []
        var offset = 0
        for shape in shapes {
            let bytes = shape.width * shape.height * shape.pixelFormat.bytesPerPixel
            let read = try pixels.read(count: bytes, at: offset)
            frames.append(
                ImageFrame(bitmap: Bitmap(width: shape.width, height: shape.height, pixelFormat: shape.pixelFormat, pixels: read), duration: shape.duration))
            offset += bytes
        }
        return Image(
            frames: frames, loopCount: loopCount, scale: scale, orientation: orientation, format: format, hasAlpha: hasAlpha,
            colorProfile: profileBytes.isEmpty ? nil : ColorProfile(data: profileBytes))
    }
}
