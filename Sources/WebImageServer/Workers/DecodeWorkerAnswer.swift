import Foundation
import WebImage

/// What a decode worker answers on its standard output (see ``DecodeWorker``): what the
/// request asked for, or the typed error that stopped it.
enum DecodeWorkerAnswer: Sendable {
    /// The size the header declares (`nil` when the coder reads no header) and the frames
    /// the container holds.
    case header(PixelSize?, frames: Int)
    /// The decoded image. Its pixels come over the pipe: the worker writes them, the
    /// server reads them into the image's bitmaps.
    case image(Image)
    /// The `/info` answer's JSON.
    case info(String)
    /// The error the read threw.
    case failure(ImageError)

    /// The number that starts every answer.
    static let magic = 0x3141_5744_4945_4257

    /// The most bytes an `/info` answer's JSON may have.
    static let maxInfoBytes = 64 << 10

    /// The answer as written on the worker's standard output: its length, then its fields.
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
                wire.write(frame.bitmap.pixels)
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
    /// `options`: an image may have no more frames, and no frame more pixels, than they allow.
    ///
    /// - Throws: `ImageError` `.badImageData` for a message that is not such an answer.
    init(fields: Data, options: ImageDecodeOptions) throws(ImageError) {
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
            self = .image(try Self.image(from: &wire, options: options))
        case 3:
            self = .info(try wire.readText(limit: Self.maxInfoBytes))
        case let kind:
            throw ImageError(.badImageData, "the decode worker answered an unknown kind \(kind)")
        }
    }

    /// The image the rest of `wire` holds, checked against `options`' limits.
    private static func image(from wire: inout DecodeWorkerWire, options: ImageDecodeOptions) throws(ImageError) -> Image {
        let format = ImageFormat(rawValue: try wire.readText(limit: 64)) ?? .undefined
        let orientation = ImageOrientation(rawValue: try wire.readInt(in: 1...8)) ?? .up
        let loopCount = try wire.readInt(in: 0...Int.max)
        let scale = try wire.readDouble()
        let hasAlpha = try wire.readInt(in: 0...1) == 1
        let profileBytes = try wire.readData(limit: 64 << 20)
        let count = try wire.readInt(in: 1...max(1, options.maxFrameCount))
        var frames: [ImageFrame] = []
        for _ in 0..<count {
            let width = try wire.readInt(in: 1...Int(Int32.max)), height = try wire.readInt(in: 1...Int(Int32.max))
            guard let pixelFormat = PixelFormat(rawValue: try wire.readText(limit: 64)) else {
                throw ImageError(.badImageData, "the decode worker answered an unknown pixel format")
            }
            guard width * height <= options.maxPixelCount else {
                throw ImageError(.imageTooLarge, "the decode worker answered \(width)×\(height) pixels, over the limit")
            }
            let duration = try wire.readDouble()
            let pixels = try wire.readPixels(count: width * height * pixelFormat.bytesPerPixel)
            guard frames.first.map({ $0.bitmap.width == width && $0.bitmap.height == height && $0.bitmap.pixelFormat == pixelFormat }) ?? true
            else {
                throw ImageError(.badImageData, "the decode worker answered a frame of the wrong size")
            }
            frames.append(ImageFrame(bitmap: Bitmap(width: width, height: height, pixelFormat: pixelFormat, pixels: pixels), duration: duration))
        }
        return Image(
            frames: frames, loopCount: loopCount, scale: scale, orientation: orientation, format: format, hasAlpha: hasAlpha,
            colorProfile: profileBytes.isEmpty ? nil : ColorProfile(data: profileBytes))
    }
}
