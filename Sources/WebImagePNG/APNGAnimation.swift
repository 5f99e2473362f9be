import WebImageCore
/// The structure of an animated PNG, read from its chunks without decoding any pixel.
///
/// Positions refer to the byte stream the animation was read from. A stream without an
/// `acTL` chunk before its image data is a still PNG and yields no animation.
struct APNGAnimation: Sendable {
    /// One frame: its control chunk and the chunks holding its compressed pixels (IDAT
    /// chunks for a first frame that is also the default image, else fdAT chunks).
    struct Frame: Sendable {
        /// The frame's `fcTL`.
        let control: APNGFrameControl
        /// The frame's data chunks, in order.
        var dataChunks: [PNGChunk]
        /// Whether the data chunks are IDAT chunks (data without a sequence number).
        let usesImageData: Bool
    }

    /// The canvas size, from IHDR.
    let canvasSize: PixelSize
    /// How many times the animation plays; 0 means forever.
    let loopCount: Int
    /// The frames, in display order, no more than `acTL` announces.
    let frames: [Frame]
    /// The IHDR chunk.
    let header: PNGChunk
    /// The chunks before the image data that every frame needs to decode (PLTE, tRNS).
    let sharedChunks: [PNGChunk]

    /// Reads the animation in `stream`, or returns `nil` for a still PNG.
    ///
    /// The CRCs of acTL and fcTL are checked here; those of fdAT chunks when a frame is
    /// extracted, so that reading the structure stays cheap.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when the animation chunks are malformed:
    ///   bad CRC, out-of-order sequence numbers, frames outside the canvas, no frames.
    init?(parsing stream: UnsafeRawBufferPointer) throws(ImageError) {
        var reader = try PNGChunkReader(stream)
        guard let header = try reader.next(), header.type == .header, header.data.count == 13 else {
            throw ImageError(.badImageData, "the PNG data does not start with an IHDR chunk")
        }
        let canvas = PixelSize(
            width: Int(stream.loadBigEndianUInt32(at: header.data.lowerBound)),
            height: Int(stream.loadBigEndianUInt32(at: header.data.lowerBound + 4))
        )
        var announcedFrames = 0
        var loopCount = 0
        var shared: [PNGChunk] = []
        var frames: [Frame] = []
        var nextSequence: UInt32 = 0
        var seenImageData = false

        func readSequence(_ chunk: PNGChunk, verifyingChecksum: Bool) throws(ImageError) {
            guard chunk.data.count >= 4, !verifyingChecksum || chunk.hasValidChecksum(in: stream) else {
                throw ImageError(.badImageData, "an APNG chunk is too short or fails its CRC")
            }
            guard stream.loadBigEndianUInt32(at: chunk.data.lowerBound) == nextSequence else {
                throw ImageError(.badImageData, "APNG chunks are out of sequence")
            }
            nextSequence &+= 1
        }

        scan: while let chunk = try reader.next() {
            switch chunk.type {
            case .animationControl where !seenImageData:
                guard chunk.data.count == 8, chunk.hasValidChecksum(in: stream) else {
                    throw ImageError(.badImageData, "the APNG acTL chunk is malformed")
                }
                announcedFrames = Int(stream.loadBigEndianUInt32(at: chunk.data.lowerBound))
                loopCount = Int(stream.loadBigEndianUInt32(at: chunk.data.lowerBound + 4))
            case .frameControl:
                guard announcedFrames > 0 else { continue }
                if frames.count == announcedFrames { break scan }
                try readSequence(chunk, verifyingChecksum: true)
                let control = try APNGFrameControl(
                    UnsafeRawBufferPointer(rebasing: stream[chunk.data])
                )
                guard control.fits(in: canvas) else {
                    throw ImageError(.badImageData, "an APNG frame lies outside the \(canvas) canvas")
                }
                guard
                    seenImageData
                        || (control.x == 0 && control.y == 0
                            && control.width == canvas.width && control.height == canvas.height)
                else {
                    throw ImageError(.badImageData, "the APNG default image frame does not cover the canvas")
                }
                frames.append(Frame(control: control, dataChunks: [], usesImageData: !seenImageData))
            case .imageData:
                if !seenImageData, announcedFrames == 0 { return nil }
                if let last = frames.indices.last, frames[last].usesImageData {
                    frames[last].dataChunks.append(chunk)
                }
                seenImageData = true
            case .frameData:
                guard let last = frames.indices.last, !frames[last].usesImageData else { continue }
                try readSequence(chunk, verifyingChecksum: false)
                frames[last].dataChunks.append(chunk)
            case .palette where !seenImageData, .transparency where !seenImageData:
                shared.append(chunk)
            case .end:
                break scan
            default:
                continue
            }
        }
        guard announcedFrames > 0 else { return nil }
        frames.removeAll { $0.dataChunks.isEmpty }
        guard !frames.isEmpty else {
            throw ImageError(.badImageData, "the APNG announces frames but holds none")
        }
        self.canvasSize = canvas
        self.loopCount = loopCount
        self.frames = frames
        self.header = header
        self.sharedChunks = shared
    }

    /// How much of `stream`, the start of a PNG still downloading, holds whole frames of an
    /// animation: the bytes before the last `fcTL` chunk that has wholly arrived (every
    /// frame before it has all its data), or the whole stream once IEND has arrived. Chunks
    /// are read only while they lie wholly in `stream`.
    ///
    /// - Returns: `nil` for a still PNG and before any frame is complete.
    static func completeFramesLength(in stream: UnsafeRawBufferPointer) -> (length: Int, isComplete: Bool)? {
        guard var reader = try? PNGChunkReader(stream) else { return nil }
        var isAnimated = false
        var controls = 0
        var boundary = 0
        while let chunk = try? reader.next() {
            switch chunk.type {
            case .animationControl:
                isAnimated = true
            case .imageData where !isAnimated:
                return nil
            case .frameControl where isAnimated:
                controls += 1
                boundary = chunk.start
            case .end:
                return isAnimated ? (stream.count, true) : nil
            default:
                continue
            }
        }
        return isAnimated && controls >= 2 ? (boundary, false) : nil
    }

    /// A standalone PNG holding only frame `index`: the IHDR with the frame's size, the
    /// shared chunks, the frame's data as IDAT chunks, and IEND.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when an fdAT chunk fails its CRC.
    func standalonePNG(forFrame index: Int, in stream: UnsafeRawBufferPointer) throws(ImageError) -> [UInt8] {
        let frame = frames[index]
        let dataBytes = frame.dataChunks.reduce(0) { $0 + $1.data.count + 12 }
        var writer = PNGChunkWriter(capacity: dataBytes + 256)
        var header = [UInt8](UnsafeRawBufferPointer(rebasing: stream[self.header.data]))
        withUnsafeBytes(of: UInt32(frame.control.width).bigEndian) { header.replaceSubrange(0..<4, with: $0) }
        withUnsafeBytes(of: UInt32(frame.control.height).bigEndian) { header.replaceSubrange(4..<8, with: $0) }
        writer.append(.header, header)
        for chunk in sharedChunks {
            writer.appendVerbatim(UnsafeRawBufferPointer(rebasing: stream[chunk.bytes]))
        }
        for chunk in frame.dataChunks {
            if frame.usesImageData {
                writer.appendVerbatim(UnsafeRawBufferPointer(rebasing: stream[chunk.bytes]))
            } else {
                guard chunk.hasValidChecksum(in: stream) else {
                    throw ImageError(.badImageData, "an APNG fdAT chunk fails its CRC")
                }
                writer.append(.imageData, UnsafeRawBufferPointer(rebasing: stream[(chunk.data.lowerBound + 4)..<chunk.data.upperBound]))
            }
        }
        writer.appendEnd()
        return writer.bytes
    }
}
