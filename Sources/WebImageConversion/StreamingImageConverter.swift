import Foundation
import WebImageCore
import WebImageJPEG
import WebImagePNG

/// Converts a JPEG to a full-size JPEG or PNG file without holding the whole frame: one
/// thread decodes strips of rows with libjpeg while the calling thread encodes them as
/// they arrive (libjpeg's `jpeg_write_scanlines`, libspng's progressive encoder), so peak
/// memory is a few strips plus what libjpeg itself needs.
///
/// The decoder, encoder and settings are those of `JPEGCoder`, so a JPEG written is the
/// file `decode` followed by `encode` writes; a PNG holds the same pixels as
/// `PNGCoder`'s, in other bytes (`PNGCoder` compresses the whole image at once with
/// libdeflate, the strips go through libspng and zlib). Conversions that
/// need the whole frame are declined (``convert(_:to:writingTo:options:decodeOptions:)``
/// returns `nil`) and are the caller's to do the usual way: thumbnails and other scaled
/// decodes, an EXIF or XMP orientation other than `up`, CMYK/YCCK data, an embedded ICC
/// profile (converted to sRGB or kept by the encoders), formats other
/// than JPEG and PNG (libwebp's encoder takes the whole picture), and input that is not
/// JPEG. The same limits apply as for a decode: `ImageDecodeOptions/maxPixelCount`
/// and the working memory of progressive files against
/// `ImageDecodeOptions/maxTotalBytes`.
public enum StreamingImageConverter {
    /// Rows decoded and encoded per strip.
    static let stripHeight = 64
    /// Strips the decoder may run ahead of the encoder.
    static let stripsInFlight = 3

    /// Converts the JPEG in `data` to `format` at full size and writes it to `url`
    /// (through a temporary file in the same folder, renamed when complete), blocking the
    /// calling thread until done. Returns the image size, or `nil` when this conversion
    /// needs the whole frame and nothing was written.
    ///
    /// - Throws: the errors of `JPEGCoder/decode(_:options:)` (truncated data is
    ///   `ImageError/Code/badImageData`), `ImageError/Code/encodingFailed`, and
    ///   `ImageError/Code/fileSystem` when the file cannot be written.
    public static func convert(
        _ data: Data,
        to format: ImageFormat,
        writingTo url: URL,
        options: ImageEncodeOptions = ImageEncodeOptions(),
        decodeOptions: ImageDecodeOptions = ImageDecodeOptions()
    ) throws(ImageError) -> PixelSize? {
        try convert(data, to: format, writingTo: url, options: options, decodeOptions: decodeOptions) { _ in [] }
    }

    /// Converts as ``convert(_:to:writingTo:options:decodeOptions:)`` does, passing the
    /// rows through the filters `filters` makes for the picture's size, in order, on
    /// their way from the decoder to the encoder.
    ///
    /// - Throws: the errors of ``convert(_:to:writingTo:options:decodeOptions:)``.
    package static func convert(
        _ data: Data,
        to format: ImageFormat,
        writingTo url: URL,
        options: ImageEncodeOptions = ImageEncodeOptions(),
        decodeOptions: ImageDecodeOptions = ImageDecodeOptions(),
        filters: (PixelSize) throws(ImageError) -> [any RGBRowFilter]
    ) throws(ImageError) -> PixelSize? {
        guard let size = try streamableSize(of: data, writing: format, options: decodeOptions) else { return nil }
        try write(to: url, as: format, size: size, options: options) { (encode) throws(ImageError) in
            let queue = StripQueue(capacity: stripsInFlight, stripBytes: stripHeight * size.width * 3)
            let filters = try filters(size)
            let decoding = startDecoding(data, size: size, into: queue, maxMemory: decodeOptions.maxTotalBytes)
            defer {
                queue.cancel()
                decoding.wait()
            }
            try encodeStrips(from: queue, width: size.width, filters: filters, encode)
        }
        return size
    }

    /// Converts the JPEG in `data` turned or mirrored as `orientation` says (the quarter
    /// turns and flips of libjpeg-turbo's lossless transform for it: `ImageOrientation.right`
    /// is a quarter turn clockwise) and writes it to `url` as `format` at full size.
    ///
    /// For the pictures that transform cannot turn exactly (partial blocks on an edge it
    /// moves), and for PNG output: the picture is decoded once into RGB rows and the
    /// output's rows are gathered from them a strip at a time, on a second thread while the
    /// encoder writes the strip before, so peak memory is one RGB frame and a few strips,
    /// not the frame, a turned copy and an encoder's copy. The pixels are those of decoding, turning and encoding as usual.
    /// Returns the output's size, or `nil` when the conversion is declined (for the reasons
    /// of ``convert(_:to:writingTo:options:decodeOptions:)``) and nothing was written.
    ///
    /// - Throws: the errors of ``convert(_:to:writingTo:options:decodeOptions:)``.
    package static func convert(
        _ data: Data,
        orientedTo orientation: ImageOrientation,
        as format: ImageFormat,
        writingTo url: URL,
        options: ImageEncodeOptions = ImageEncodeOptions(),
        decodeOptions: ImageDecodeOptions = ImageDecodeOptions()
    ) throws(ImageError) -> PixelSize? {
        guard let size = try streamableSize(of: data, writing: format, options: decodeOptions) else { return nil }
        let frame = try FloatPixelMemory.allocate(try [UInt8].imageSizedCount([size.width, size.height, 3]), of: UInt8.self)
        defer { FloatPixelMemory.deallocate(frame) }
        let decoded = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            Result { () throws(ImageError) in
                let decompressor = try startDecompressing(bytes, size: size, maxMemory: decodeOptions.maxTotalBytes)
                let read = try decompressor.readRows(into: frame, stride: size.width * 3, count: size.height)
                guard read == size.height else {
                    throw ImageError(.badImageData, "libjpeg stopped after \(read) of \(size.height) rows")
                }
                try finishDecompressing(decompressor)
            }
        }
        try decoded.get()
        let walk = OrientedWalk(orientation, sourceSize: size)
        let outputSize = walk.outputSize
        try write(to: url, as: format, size: outputSize, options: options) { (encode) throws(ImageError) in
            let queue = StripQueue(capacity: stripsInFlight, stripBytes: stripHeight * outputSize.width * 3)
            let gathering = startGathering(walk, from: UnsafeRawPointer(frame), into: queue)
            defer {
                queue.cancel()
                gathering.wait()
            }
            try encodeStrips(from: queue, width: outputSize.width, filters: [], encode)
        }
        return outputSize
    }

    /// Starts the thread that gathers the turned picture's strips from `frame` into
    /// `queue`, a strip or more ahead of the encoder, so that the gather's scattered reads
    /// cost the encoder no time. The returned semaphore is signalled when the thread is done
    /// with `frame`.
    private static func startGathering(_ walk: OrientedWalk, from frame: UnsafeRawPointer, into queue: StripQueue) -> DispatchSemaphore {
        // Read only, and kept alive by the caller until the thread is done.
        nonisolated(unsafe) let frame = frame
        return startThread(named: "webimage.turn-gather") {
            let size = walk.outputSize
            var row = 0
            while row < size.height {
                guard var buffer = queue.bufferToFill() else { return }
                let count = min(stripHeight, size.height - row)
                buffer.withUnsafeMutableBytes { walk.gather(rows: row..<(row + count), from: frame, into: $0.baseAddress!) }
                queue.send(.rows(buffer, rowCount: count))
                row += count
            }
            queue.send(.end)
        }
    }

    /// Writes the rows `produce` hands its `encode` argument to `url` as `format` (JPEG or
    /// PNG, with the coders' settings), through a temporary file in the same folder that
    /// is renamed when complete and removed on failure.
    private static func write(
        to url: URL,
        as format: ImageFormat,
        size: PixelSize,
        options: ImageEncodeOptions,
        rows produce: (_ encode: (UnsafeRawBufferPointer) throws(ImageError) -> Void) throws(ImageError) -> Void
    ) throws(ImageError) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
            let file = FileHandle(forWritingAtPath: temporary.path)
        else {
            throw ImageError(.fileSystem, "cannot create \(temporary.path)")
        }
        do throws(ImageError) {
            defer { try? file.close() }
            if format == .jpeg {
                let compressor = try JPEGCompressor(
                    size: size, pixels: .rgb,
                    quality: JPEGCoder.quality(for: options), lumaSampling: JPEGCoder.lumaSampling(for: options)
                )
                try produce { (rows) throws(ImageError) in try compressor.write(rows: rows, bytesPerRow: size.width * 3) }
                let encoded = try compressor.finish()
                do {
                    try file.write(contentsOf: encoded)
                } catch {
                    throw ImageError(.fileSystem, "cannot write \(temporary.path): \(error.localizedDescription)")
                }
            } else {
                let encoder = try PNGRowEncoder(size: size, keepingAlpha: false, fileDescriptor: file.fileDescriptor)
                try produce { (rows) throws(ImageError) in try encoder.write(rows: rows, bytesPerRow: size.width * 3) }
                try encoder.finish()
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw ImageError(.fileSystem, "cannot move the converted image to \(url.path): \(reason)")
        }
    }

    /// The full size of the JPEG in `data` when it can be converted in strips to `format`
    /// (JPEG or PNG), `nil` when it needs the whole frame or another format.
    ///
    /// - Throws: the header errors and limits of a decode with `options`.
    private static func streamableSize(of data: Data, writing format: ImageFormat, options: ImageDecodeOptions) throws(ImageError) -> PixelSize? {
        guard format == .jpeg || format == .png, ImageFormat(sniffing: data) == .jpeg else { return nil }
        let result = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            Result { () throws(ImageError) -> PixelSize? in
                let metadata = JPEGMetadata(reading: bytes)
                guard metadata.orientation == .up, metadata.precision == 8, metadata.iccProfile == nil else { return nil }
                let header = try JPEGDecompressor(bytes, maxMemory: options.maxTotalBytes).readHeader()
                guard !header.isCMYK, options.targetSize(forSource: header.size) == header.size else { return nil }
                try options.checkAllocation(header.size)
                try JPEGCoder.checkWorkingMemory(
                    of: header, besides: stripsInFlight * stripHeight * header.size.width * 3, options: options
                )
                return header.size
            }
        }
        return try result.get()
    }

    /// Starts the decoding thread, which sends every strip of `data` (decoded as RGB) to
    /// `queue`, then the end or the failure. The returned semaphore is signalled when the
    /// thread is done with `data`.
    private static func startDecoding(_ data: Data, size: PixelSize, into queue: StripQueue, maxMemory: Int) -> DispatchSemaphore {
        startThread(named: "webimage.jpeg-decode") {
            let outcome = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                Result { () throws(ImageError) in try decodeStrips(bytes, size: size, into: queue, maxMemory: maxMemory) }
            }
            if case .failure(let error) = outcome { queue.send(.failed(error)) }
        }
    }

    /// Runs `body` on a thread of its own named `name`; the returned semaphore is signalled
    /// when `body` has returned.
    private static func startThread(named name: String, _ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            body()
        }
        thread.name = name
        thread.start()
        return done
    }

    /// The decoding thread's work: every row, in strips, then `StripQueue/Item/end`
    /// unless the data was truncated.
    private static func decodeStrips(
        _ jpeg: UnsafeRawBufferPointer,
        size: PixelSize,
        into queue: StripQueue,
        maxMemory: Int
    ) throws(ImageError) {
        let decompressor = try startDecompressing(jpeg, size: size, maxMemory: maxMemory)
        let bytesPerRow = size.width * 3
        var row = 0
        while row < size.height {
            guard var buffer = queue.bufferToFill() else { return }
            let wanted = min(stripHeight, size.height - row)
            let read = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(ImageError) in
                    try decompressor.readRows(into: bytes.baseAddress!, stride: bytesPerRow, count: wanted)
                }
            }
            guard try read.get() == wanted else {
                throw ImageError(.badImageData, "libjpeg stopped after \(row) of \(size.height) rows")
            }
            queue.send(.rows(buffer, rowCount: wanted))
            row += wanted
        }
        try finishDecompressing(decompressor)
        queue.send(.end)
    }

    /// A decompressor of `jpeg` started at full size as RGB, which must be `size`.
    private static func startDecompressing(_ jpeg: UnsafeRawBufferPointer, size: PixelSize, maxMemory: Int) throws(ImageError) -> JPEGDecompressor {
        let decompressor = try JPEGDecompressor(jpeg, maxMemory: maxMemory)
        _ = try decompressor.readHeader()
        let outputSize = try decompressor.start(scale: .one, pixels: .rgb)
        guard outputSize == size else {
            throw ImageError(.badImageData, "libjpeg decodes the JPEG at \(outputSize), not \(size)")
        }
        return decompressor
    }

    /// Reads the data after the last row, failing for data that ended early.
    private static func finishDecompressing(_ decompressor: borrowing JPEGDecompressor) throws(ImageError) {
        try decompressor.finish()
        if decompressor.dataEndedEarly {
            throw ImageError(
                .badImageData,
                "the JPEG data is truncated (libjpeg gave \(decompressor.warningCount) warnings, the first: \(decompressor.message))"
            )
        }
    }

    /// The encoding side: passes each strip's rows through `filters` to `encode` until
    /// the end.
    private static func encodeStrips(
        from queue: StripQueue,
        width: Int,
        filters: [any RGBRowFilter],
        _ encode: (UnsafeRawBufferPointer) throws(ImageError) -> Void
    ) throws(ImageError) {
        while true {
            switch queue.receive() {
            case .rows(let buffer, let rowCount):
                let encoded = buffer.withUnsafeBytes { bytes in
                    Result { () throws(ImageError) in
                        try pass(UnsafeRawBufferPointer(rebasing: bytes[..<(rowCount * width * 3)]), count: rowCount, through: filters[...], to: encode)
                    }
                }
                queue.recycle(buffer)
                try encoded.get()
            case .end:
                for index in filters.indices {
                    try filters[index].finish { (rows, count) throws(ImageError) in
                        try pass(rows, count: count, through: filters[(index + 1)...], to: encode)
                    }
                }
                return
            case .failed(let error):
                throw error
            }
        }
    }

    /// Hands `count` rows to the first of `filters`, whose output goes to the next, the
    /// last one's to `encode`.
    private static func pass(
        _ rows: UnsafeRawBufferPointer,
        count: Int,
        through filters: ArraySlice<any RGBRowFilter>,
        to encode: (UnsafeRawBufferPointer) throws(ImageError) -> Void
    ) throws(ImageError) {
        guard let first = filters.first else {
            try encode(rows)
            return
        }
        try first.consume(rows, count: count) { (rows, count) throws(ImageError) in
            try pass(rows, count: count, through: filters.dropFirst(), to: encode)
        }
    }
}
