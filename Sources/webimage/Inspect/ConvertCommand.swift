import ArgumentParser
import Foundation
import WebImage
import WebImageConversion

/// `webimage convert`: decodes one image and writes it in another format or size,
/// optionally through a transform spec.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Decode an image, optionally transform it, and write it again.",
        discussion: """
            The output format comes from format= in the transform spec, else from OUT's \
            extension (jpg, png, gif, webp). A spec is operations separated by '|', such as \
            'resize=400x300,fill|round=12|blur=2|format=webp,q=80'; the README lists them all. \
            Without a spec or thumbnail, a JPEG to JPEG or PNG conversion streams: rows are \
            encoded as they are decoded, on two threads, without holding the whole picture \
            (except an Ultra HDR JPEG written as JPEG, decoded whole to keep its gain map). \
            A JPEG to JPEG conversion whose spec is only quarter turns and flips is done \
            without re-encoding (libjpeg-turbo's lossless transform) when the picture's edges \
            allow it exactly; the source's quality is then kept. A JPEG written as JPEG XL \
            with no operation and no max= or maxbytes= is recompressed without loss \
            (libjxl's JPEG reconstruction: the same pixels, djxl rebuilds the JPEG) when \
            libjxl takes it, upright and, unless the spec says icc=keep, without an ICC profile.
            """
    )

    @Argument(help: "The image to read.")
    var input: String

    @Argument(help: "The file to write.")
    var output: String

    @Option(help: "Fit the image inside WIDTHxHEIGHT pixels while decoding, keeping its aspect ratio.")
    var thumbnail: PixelSize?

    @Option(help: "Quality for lossy formats, 0 to 100 (default 90); a spec gives it as q= in format=.")
    var quality: Double?

    @Option(help: "Operations to apply and how to write the result, e.g. 'resize=800|blur=2|format=webp,q=80'.")
    var transform: String?

    func run() throws {
        let spec: TransformSpec?
        do {
            spec = try transform.map { text throws(TransformSpecError) in
                try TransformSpec(text) { name in try Self.decodeFile(atPath: name) }
            }
        } catch {
            throw ValidationError("--transform: \(error)")
        }
        let outputURL = URL(fileURLWithPath: output)
        guard let format = spec?.format ?? ImageFormat(fileExtension: outputURL.pathExtension) else {
            throw ValidationError("cannot tell the output format from '\(outputURL.pathExtension)'; name it or add format= to the spec")
        }
        if quality != nil, spec?.encodeOptions != nil {
            throw ValidationError("give the quality once: --quality, or q= in the spec's format=")
        }
        let encodeOptions = spec?.encodeOptions ?? ImageEncodeOptions(quality: (quality ?? 90) / 100)
        do {
            let decodeOptions =
                thumbnail.map { ImageDecodeOptions(thumbnailPixelSize: $0) }
                ?? spec?.decodeOptions ?? ImageDecodeOptions()
            // A JPEG written as JPEG XL with nothing changing its pixels is recompressed.
            if thumbnail == nil, format == .jxl, spec?.keepsPixels ?? true, let jpeg = FileManager.default.contents(atPath: input),
                let recompressed = ImageCodersManager.shared.recompressedJPEG(
                    jpeg, colorProfile: encodeOptions.colorProfile, limits: decodeOptions)
            {
                guard FileManager.default.createFile(atPath: output, contents: recompressed) else {
                    throw ImageError(.fileSystem, "cannot write \(output)")
                }
                let size = try ImageCodersManager.shared.checkHeader(of: recompressed).map { " \($0.width)×\($0.height)" } ?? ""
                print("\(output): jxl\(size), \(recompressed.count) bytes, the JPEG recompressed without loss (djxl rebuilds it)")
                return
            }
            // A PNG thumbnail is decoded row by row from the file, never read whole.
            if thumbnail != nil, let image = try PNGCoder.streamedThumbnail(atPath: input, options: decodeOptions) {
                try Self.write(image, transformedBy: spec, as: format, options: encodeOptions, to: output)
                return
            }
            // A JPEG that is decoded whole for a transform (not turned losslessly, not
            // streamed strip by strip) is read from the file a buffer at a time.
            if thumbnail == nil, let spec, spec.losslessOrientation == nil, spec.rowFilters == nil,
                let image = try JPEGCoder.decodeFile(atPath: input, options: decodeOptions)
            {
                try Self.write(image, transformedBy: spec, as: format, options: encodeOptions, to: output)
                return
            }
            guard let data = FileManager.default.contents(atPath: input) else {
                throw ImageError(.fileSystem, "cannot read \(input)")
            }
            if thumbnail == nil, let spec,
                let turned = try spec.losslessJPEG(from: data, writing: format, decodeOptions: decodeOptions)
            {
                guard FileManager.default.createFile(atPath: output, contents: turned) else {
                    throw ImageError(.fileSystem, "cannot write \(output)")
                }
                let size = try ImageCodersManager.shared.checkHeader(of: turned).map { " \($0.width)×\($0.height)" } ?? ""
                print("\(output): \(format.rawValue)\(size), \(turned.count) bytes, turned without re-encoding")
                return
            }
            // Streaming writes no gain map: an Ultra HDR JPEG written as JPEG is decoded whole.
            let keepsGainMap = format == .jpeg && encodeOptions.keepsGainMap && JPEGCoder.gainMap(describedIn: data) != nil
            if thumbnail == nil, !keepsGainMap, let orientation = spec?.losslessOrientation,
                let size = try StreamingImageConverter.convert(
                    data, orientedTo: orientation, as: format, writingTo: outputURL, options: encodeOptions,
                    decodeOptions: decodeOptions)
            {
                let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
                print("\(output): \(format.rawValue) \(size.width)×\(size.height), \(bytes) bytes")
                return
            }
            if !keepsGainMap, let filters = spec.map(\.rowFilters) ?? { _ in [] },
                let size = try StreamingImageConverter.convert(
                    data, to: format, writingTo: outputURL, options: encodeOptions, decodeOptions: decodeOptions,
                    filters: filters
                )
            {
                let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
                print("\(output): \(format.rawValue) \(size.width)×\(size.height), \(bytes) bytes")
                return
            }
            let image = try ImageCodersManager.shared.decode(data, options: decodeOptions)
            try Self.write(image, transformedBy: spec, as: format, options: encodeOptions, to: output)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Transforms `image` by `spec`'s pipeline, encodes it and writes it to `output`.
    private static func write(
        _ image: Image, transformedBy spec: TransformSpec?, as format: ImageFormat, options: ImageEncodeOptions, to output: String
    ) throws(ImageError) {
        var image = image
        if let spec, let transformed = spec.pipeline.transform(image) {
            image = transformed
        }
        let encoded = try ImageCodersManager.shared.encode(image, as: format, options: options)
        guard FileManager.default.createFile(atPath: output, contents: encoded) else {
            throw ImageError(.fileSystem, "cannot write \(output)")
        }
        print("\(output): \(format.rawValue) \(image.pixelWidth)×\(image.pixelHeight), \(encoded.count) bytes")
    }

    private static func decodeFile(atPath path: String, options: ImageDecodeOptions = ImageDecodeOptions()) throws(ImageError) -> Image {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImageError(.fileSystem, "cannot read \(path)")
        }
        return try ImageCodersManager.shared.decode(data, options: options)
    }
}
