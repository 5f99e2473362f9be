import Foundation
import WebImage

/// What the server asks of a decode worker: what to read from the source's bytes, with the
/// decode options that bound it (see ``DecodeWorker``).
struct DecodeWorkerRequest: Sendable {
    /// What the worker reads from the bytes.
    enum Kind: Int, Sendable {
        /// The size the header declares and the frames the container holds.
        case header = 1
        /// The decoded image, every frame decoded.
        case decode = 2
        /// The `/info` answer's JSON.
        case info = 3
    }

    /// What the worker reads.
    var kind: Kind
    /// The options the read is made with.
    var options: ImageDecodeOptions
    /// The source's bytes.
    var data: Data
    /// The address space the worker may map for this read, which it applies before it
    /// reads the rest of the request.
    var addressSpace: Int

    /// The number that starts every request, so that stray input is refused at once.
    static let magic = 0x3157_4449_5745_4257

    /// The request as written on the worker's standard input: its address space, its
    /// length, then its fields.
    var encoded: Data {
        var wire = DecodeWorkerWire()
        wire.write(Self.magic)
        wire.write(kind.rawValue)
        wire.write(options.thumbnailPixelSize?.width ?? -1)
        wire.write(options.thumbnailPixelSize?.height ?? -1)
        wire.write(options.preserveAspectRatio ? 1 : 0)
        wire.write(options.coversThumbnailBox ? 1 : 0)
        wire.write(options.firstFrameOnly ? 1 : 0)
        wire.write(options.maxPixelCount)
        wire.write(options.maxTotalBytes)
        wire.write(options.maxChunkBytes)
        wire.write(options.maxAnimationWork)
        wire.write(options.maxFrameCount)
        wire.write(options.scaleFactor == nil ? 0 : 1)
        wire.write(options.scaleFactor ?? 0)
        wire.write(options.scaleDownLimitBytes ?? -1)
        wire.write(data)
        var framed = DecodeWorkerWire()
        framed.write(addressSpace)
        framed.write(wire.bytes)
        return framed.bytes
    }

    /// A request to read `kind` from `data` with `options`, in `addressSpace` bytes.
    init(kind: Kind, options: ImageDecodeOptions, data: Data, addressSpace: Int) {
        self.kind = kind
        self.options = options
        self.data = data
        self.addressSpace = addressSpace
    }

    /// Reads the fields of a request (the bytes after its length); its address space is
    /// the worker's to read before, and is 0 here.
    ///
    /// - Throws: `ImageError` `.badImageData` for a message that is not a request.
    init(fields: Data) throws(ImageError) {
        var wire = DecodeWorkerWire(reading: fields)
        guard try wire.readInt() == Self.magic, let kind = Kind(rawValue: try wire.readInt()) else {
            throw ImageError(.badImageData, "the decode worker's input is not a request")
        }
        self.kind = kind
        var options = ImageDecodeOptions()
        let width = try wire.readInt(in: -1...Int(Int32.max)), height = try wire.readInt(in: -1...Int(Int32.max))
        if width >= 0, height >= 0 { options.thumbnailPixelSize = PixelSize(width: width, height: height) }
        options.preserveAspectRatio = try wire.readInt(in: 0...1) == 1
        options.coversThumbnailBox = try wire.readInt(in: 0...1) == 1
        options.firstFrameOnly = try wire.readInt(in: 0...1) == 1
        options.maxPixelCount = try wire.readInt(in: 0...Int.max)
        options.maxTotalBytes = try wire.readInt(in: 0...Int.max)
        options.maxChunkBytes = try wire.readInt(in: 0...Int.max)
        options.maxAnimationWork = try wire.readInt(in: 0...Int.max)
        options.maxFrameCount = try wire.readInt(in: 0...Int.max)
        let hasScale = try wire.readInt(in: 0...1) == 1
        let scale = try wire.readDouble()
        if hasScale { options.scaleFactor = scale }
        let limit = try wire.readInt(in: -1...Int.max)
        if limit >= 0 { options.scaleDownLimitBytes = limit }
        self.options = options
        data = try wire.readData(limit: fields.count)
        addressSpace = 0
    }
}
