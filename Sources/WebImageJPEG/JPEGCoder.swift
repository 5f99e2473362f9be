import Foundation
import WebImageCore

/// Decodes and encodes JPEG with libjpeg-turbo's classic libjpeg API (through the small
/// C shim `CJPEGShim`, which turns libjpeg's `longjmp` errors into return codes).
///
/// Decoding produces one upright `PixelFormat/rgba8` frame: the EXIF orientation (or,
/// without one, the XMP `tiff:Orientation`) is applied, grayscale is expanded to RGB and
/// CMYK/YCCK is converted to RGB. Any sampling factors libjpeg accepts decode, including
/// those TurboJPEG's API refuses. The ICC profile of the `APP2` segments comes with the
/// image (`Image/colorProfile`); a CMYK JPEG with a profile is converted through it to
/// sRGB (with the `ColorManagement` trait), and one without by the naive formula. Thumbnails and `ImageDecodeOptions/scaleDownLimitBytes`
/// decode at the smallest of libjpeg's DCT scaling factors that still covers the target,
/// then resample to the exact target, so a thumbnail of a picture too large to decode
/// whole still works. 12-bit and 16-bit JPEGs are refused as unsupported.
///
/// HDR gain maps (Ultra HDR, ISO 21496-1) are read with the primary: the map, found through
/// the MPF index (or right after the primary's end when the index is stale), is decoded
/// at the primary's scale, turned by its orientation and kept as `Image/gainMap` with its
/// metadata; a damaged or truncated map is left out and the primary decodes as ever. The
/// encoder writes the map back behind the primary, with an MPF index and the metadata the
/// source had, unless `ImageEncodeOptions/keepsGainMap` is off.
///
/// Memory: a progressive or multi-scan JPEG makes libjpeg keep every DCT coefficient of
/// the full-size image, whatever the output scale, so that buffer (read from the header
/// before decoding) counts with the output pixels against
/// `ImageDecodeOptions/maxTotalBytes`.
///
/// Truncated data: ``decode(_:options:)`` refuses it with `ImageError/Code/badImageData`
/// ("truncated") whenever any of libjpeg's warnings says the data ended early, even after
/// other warnings, while ``decodeIncrementally(_:isComplete:options:)`` returns what the
/// bytes so far show (the top rows of a baseline JPEG, a coarse pass of a progressive one).
/// Other warnings about damaged but complete data keep the picture.
///
/// Encoding writes baseline JPEG at `quality × 100` with 4:2:0 chroma subsampling, or
/// 4:4:4 at quality 0.9 and above; transparent pixels are composited over white.
/// The coder keeps no state: each call makes its own libjpeg instance.
public struct JPEGCoder: ProgressiveImageCoder {
    /// The largest width or height libjpeg accepts.
    private static let maximumDimension = 65500

    /// Creates the coder.
    public init() {}

    /// The formats this coder decodes: JPEG.
    public var decodableFormats: Set<ImageFormat> { [.jpeg] }

    /// Whether `data` starts with the JPEG signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .jpeg
    }

    /// Decodes the whole JPEG in `data` into an upright image.
    ///
    /// - Throws: `ImageError/Code/emptyData`, `ImageError/Code/badImageData` for
    ///   corrupt or truncated data, `ImageError/Code/unsupportedFormat` for 12-bit or
    ///   16-bit samples, `ImageError/Code/imageTooLarge` past the options' limits.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        guard !data.isEmpty else { throw ImageError(.emptyData, "the JPEG data is empty") }
        let result = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            Result { () throws(ImageError) in try decodeImage(bytes, options: options, acceptingTruncation: false) }
        }
        return try result.get()
    }

    /// Whether `data` starts with the JPEG signature: every JPEG can be shown partially.
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// Decodes the bytes of a JPEG received so far.
    ///
    /// Returns `nil` while the header (up to the first scan) is incomplete, and also while
    /// libjpeg fails on the data in a way more bytes may cure; once `isComplete`, this is
    /// ``decode(_:options:)``.
    ///
    /// - Throws: `ImageError/Code/imageTooLarge` and `ImageError/Code/unsupportedFormat`
    ///   as soon as the header shows them, and every error of a complete decode.
    public func decodeIncrementally(_ data: Data, isComplete: Bool, options: ImageDecodeOptions) throws(ImageError) -> Image? {
        if isComplete { return try decode(data, options: options) }
        let result = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            Result { () throws(ImageError) -> Image? in
                do throws(ImageError) {
                    return try decodeImage(bytes, options: options, acceptingTruncation: true)
                } catch {
                    guard error.code == .badImageData || error.code == .emptyData else { throw error }
                    return nil
                }
            }
        }
        return try result.get()
    }

    /// Whether `format` is JPEG.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .jpeg
    }

    /// Encodes the first frame of `image` as JPEG, with its ICC profile in `APP2` segments
    /// when the options keep it, the options' copyright in `APP1` segments, and its gain
    /// map behind it (Ultra HDR) unless the options drop it.
    ///
    /// - Throws: `ImageError/Code/unsupportedFormat` for any other format,
    ///   `ImageError/Code/encodingFailed` when libjpeg refuses the image.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard format == .jpeg else {
            throw ImageError(.unsupportedFormat, "the JPEG coder cannot write \(format.rawValue)")
        }
        let image = try options.prepared(image, for: format)
        let bitmap = try image.bitmap.convertedToRGBA8()
        let pixels = image.hasAlpha ? Self.compositedOverWhite(bitmap.pixels) : bitmap.pixels
        let compressor = try JPEGCompressor(
            size: bitmap.size, pixels: .rgba,
            quality: Self.quality(for: options), lumaSampling: Self.lumaSampling(for: options)
        )
        let written = pixels.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try compressor.write(rows: bytes, bytesPerRow: bitmap.width * 4) }
        }
        try written.get()
        var jpeg = try compressor.finish()
        if options.colorProfile == .keep, let profile = image.colorProfile { jpeg = JPEGICCSegments.inserting(profile, into: jpeg) }
        if let copyright = options.copyright { jpeg = JPEGCopyrightSegments.inserting(copyright, into: jpeg) }
        if options.keepsGainMap, let gainMap = image.gainMap {
            jpeg = JPEGGainMapWriter.appending(gainMap, to: jpeg, primarySize: bitmap.size, quality: Self.quality(for: options))
        }
        return jpeg
    }

    /// The libjpeg quality, 1 to 100, that `options` ask for.
    package static func quality(for options: ImageEncodeOptions) -> Int {
        min(max(Int((options.quality * 100).rounded()), 1), 100)
    }

    /// The luminance sampling factors for `options`: 2×2 (4:2:0 chroma) below quality
    /// 0.9, else 1×1 (4:4:4).
    package static func lumaSampling(for options: ImageEncodeOptions) -> PixelSize {
        options.quality < 0.9 ? PixelSize(width: 2, height: 2) : PixelSize(width: 1, height: 1)
    }

    /// Decodes one JPEG: header, limits, scaled decompression, colour, orientation, size.
    private func decodeImage(
        _ jpeg: UnsafeRawBufferPointer,
        options: ImageDecodeOptions,
        acceptingTruncation: Bool
    ) throws(ImageError) -> Image {
        guard jpeg.count > 0 else { throw ImageError(.emptyData, "the JPEG data is empty") }
        let metadata = JPEGMetadata(reading: jpeg)
        try Self.check(metadata)
        let image = try Self.decodeImage(
            JPEGDecompressor(jpeg, maxMemory: options.maxTotalBytes), metadata: metadata, options: options,
            acceptingTruncation: acceptingTruncation)
        return acceptingTruncation ? image : image.withGainMap(Self.gainMap(in: jpeg, primary: metadata, decodedAs: image, options: options))
    }

    /// Decodes the JPEG file at `path` as ``decode(_:options:)`` decodes its bytes, reading
    /// it a buffer at a time instead of whole: only the segments before the first scan are
    /// held (for the orientation and the ICC profile), then libjpeg reads the scans from the
    /// file. A 20 MP photograph's 4 MB file is never in memory, only its decoded pixels.
    ///
    /// - Returns: `nil` when the file cannot be opened or does not start with the JPEG
    ///   signature.
    /// - Throws: every error of ``decode(_:options:)``.
    package static func decodeFile(atPath path: String, options: ImageDecodeOptions) throws(ImageError) -> Image? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        guard let header = JPEGMetadata.headerSegments(of: file), fseeko(file, 0, SEEK_SET) == 0 else { return nil }
        let metadata = header.withUnsafeBytes { JPEGMetadata(reading: $0) }
        try check(metadata)
        let image = try decodeImage(
            JPEGDecompressor(reading: file, maxMemory: options.maxTotalBytes), metadata: metadata, options: options,
            acceptingTruncation: false)
        guard metadata.gainMapSegments.multiPictureOffset != nil, let bytes = FileManager.default.contents(atPath: path) else { return image }
        return image.withGainMap(bytes.withUnsafeBytes { gainMap(in: $0, primary: metadata, decodedAs: image, options: options) })
    }

    /// Refuses what the segments declare before libjpeg is started: samples of other than
    /// 8 bits, a side over libjpeg's limit.
    static func check(_ metadata: JPEGMetadata) throws(ImageError) {
        if let precision = metadata.precision, precision != 8 {
            throw ImageError(.unsupportedFormat, "\(precision)-bit JPEG samples are not supported, only 8-bit")
        }
        if let declared = metadata.frameSize, max(declared.width, declared.height) > Self.maximumDimension {
            throw ImageError(
                .imageTooLarge,
                "the JPEG declares \(declared), over libjpeg's limit of \(Self.maximumDimension) pixels a side"
            )
        }
    }

    /// Decodes the JPEG `decompressor` reads, whose segments say `metadata`.
    static func decodeImage(
        _ decompressor: consuming JPEGDecompressor, metadata: JPEGMetadata, options: ImageDecodeOptions,
        acceptingTruncation: Bool
    ) throws(ImageError) -> Image {
        let header = try decompressor.readHeader()
        let orientation = metadata.orientation
        let swaps = orientation.swapsWidthAndHeight
        let displayedSize = swaps ? header.size.transposed : header.size
        let target = options.targetSize(forSource: displayedSize, frameCount: 1)
        let scale =
            target == displayedSize
            ? JPEGScale.one
            : JPEGScale.smallest(covering: swaps ? target.transposed : target, from: header.size)
        let decodedSize = scale.scaled(header.size)
        try options.checkAllocation(decodedSize)
        try Self.checkWorkingMemory(of: header, besides: decodedSize.width * decodedSize.height * 4, options: options)

        let outputSize = try decompressor.start(scale: scale, pixels: header.isCMYK ? .cmyk : .rgba)
        guard outputSize == decodedSize else {
            throw ImageError(.badImageData, "libjpeg decodes the JPEG at \(outputSize), not \(decodedSize)")
        }
        var output = try Self.readAllRows(of: decompressor, size: decodedSize)
        try decompressor.finish()
        if decompressor.dataEndedEarly, !acceptingTruncation {
            throw ImageError(
                .badImageData,
                "the JPEG data is truncated (libjpeg gave \(decompressor.warningCount) warnings, the first: \(decompressor.message))"
            )
        }
        var profile = metadata.iccProfile.flatMap { ColorProfile(data: Data($0)) }
        if header.isCMYK {
            Self.convertCMYKToRGBA(&output, inverted: metadata.hasAdobeMarker, profile: profile)
            profile = nil
        }
        var bitmap = Bitmap(width: decodedSize.width, height: decodedSize.height, pixelFormat: .rgba8, pixels: output)
        if orientation != .up {
            bitmap = try bitmap.oriented(orientation)
        }
        if bitmap.size != target {
            bitmap = try bitmap.resized(to: target)
        }
        return Image(
            frames: [ImageFrame(bitmap: bitmap)], loopCount: 0, scale: options.scaleFactor ?? 1,
            orientation: orientation, format: .jpeg, hasAlpha: false, colorProfile: profile
        )
    }

    /// Refuses a decode whose libjpeg working memory and `outputBytes` of pixels together
    /// pass ``ImageDecodeOptions/maxTotalBytes``: a progressive or multi-scan file keeps
    /// all coefficients of the full-size image, even for a thumbnail.
    package static func checkWorkingMemory(
        of header: JPEGDecompressor.Header,
        besides outputBytes: Int,
        options: ImageDecodeOptions
    ) throws(ImageError) {
        let needed = header.workingBytes.addingReportingOverflow(outputBytes)
        guard needed.overflow || needed.partialValue > options.maxTotalBytes else { return }
        throw ImageError(
            .imageTooLarge,
            "decoding this multi-scan JPEG of \(header.size) keeps \(header.workingBytes) bytes of coefficients, "
                + "over the limit of \(options.maxTotalBytes) bytes"
        )
    }

    /// Every output row of a started decompression, 4 bytes per pixel.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when libjpeg fails or stops short.
    private static func readAllRows(of decompressor: borrowing JPEGDecompressor, size: PixelSize) throws(ImageError) -> [UInt8] {
        let bytesPerRow = size.width * 4
        var outcome: Result<Int, ImageError> = .success(0)
        let pixels = try [UInt8](unsafeUninitializedImageSized: bytesPerRow, size.height) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            outcome = Result { () throws(ImageError) in
                try decompressor.readRows(into: base, stride: bytesPerRow, count: size.height)
            }
            count = (try? outcome.get()) == size.height ? buffer.count : 0
        }
        let rows = try outcome.get()
        guard rows == size.height else {
            throw ImageError(.badImageData, "libjpeg stopped after \(rows) of \(size.height) rows")
        }
        return pixels
    }

    /// RGBA pixels composited over an opaque white background.
    private static func compositedOverWhite(_ pixels: [UInt8]) -> [UInt8] {
        var result = pixels
        result.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index + 3 < buffer.count {
                let alpha = UInt32(buffer[index + 3])
                if alpha != 255 {
                    let background = 255 * (255 - alpha)
                    for channel in index..<(index + 3) {
                        buffer[channel] = UInt8((UInt32(buffer[channel]) * alpha + background + 127) / 255)
                    }
                    buffer[index + 3] = 255
                }
                index += 4
            }
        }
        return result
    }
}
