import Foundation

/// A chain of transformations and how to write the result, read from one short line of
/// text — the form the `webimage convert --transform` option and the image server share.
///
/// Operations are separated by `|` and run in order; each is `name=arguments`, with
/// arguments separated by `,` (an operation without arguments is just its name). For
/// example `resize=400x300,fill|round=12|blur=2|format=webp,q=80` fills a 400×300
/// canvas, rounds the corners by 12 pixels, blurs with a sigma of 2 and writes WebP at
/// quality 80. The README lists every operation and its arguments.
public struct TransformSpec: Sendable {
    /// The transformations, in the order they run.
    public var transformers: [any ImageTransformer]
    /// The format to write, from `format=`; `nil` to leave the choice to the caller.
    public var format: ImageFormat?
    /// How to write the result, from `format=`'s options; `nil` when the spec has no
    /// `format=` operation.
    public var encodeOptions: ImageEncodeOptions?

    /// The largest width or height an operation may ask for.
    public static let maximumDimension = 16384

    /// The transformations as one transformer, whose key joins theirs.
    public var pipeline: ImageTransformerPipeline { ImageTransformerPipeline(transformers) }

    /// Reads a spec. `overlay` turns the name in an `overlay=` operation into an image
    /// (a file path for the tool); without it, overlays are refused.
    ///
    /// - Throws: ``TransformSpecError`` naming the operation and argument that are wrong.
    public init(
        _ text: String,
        overlay: ((String) throws -> Image)? = nil
    ) throws(TransformSpecError) {
        transformers = []
        format = nil
        encodeOptions = nil
        let parser = TransformSpecParser(overlay: overlay)
        let operations = text.split(separator: "|", omittingEmptySubsequences: false)
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw TransformSpecError(operation: nil, message: "the spec is empty; write operations such as resize=400x300|blur=2")
        }
        var sawFormat = false
        for operation in operations {
            let trimmed = operation.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else {
                throw TransformSpecError(operation: nil, message: "an operation between two '|' is empty")
            }
            let parts = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].lowercased()
            let arguments =
                parts.count > 1
                ? parts[1].split(separator: ",", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                : []
            if name == "format" {
                guard !sawFormat else {
                    throw TransformSpecError(operation: name, message: "format= may appear only once")
                }
                sawFormat = true
                (format, encodeOptions) = try parser.encoding(arguments)
            } else {
                transformers.append(try parser.transformer(named: name, arguments: arguments))
            }
        }
    }

    /// Decode options that let a coder produce the size the first operation asks for while
    /// decoding (a JPEG is then decoded at a reduced scale), when that operation is a
    /// resize that keeps the aspect ratio and never crops; plain options otherwise.
    public var decodeOptions: ImageDecodeOptions {
        guard let resize = transformers.first as? ResizingImageTransformer else { return ImageDecodeOptions() }
        let unbounded = Int(Int32.max)
        switch (resize.width, resize.height, resize.contentMode) {
        case let (width?, nil, _):
            return ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: width, height: unbounded))
        case let (nil, height?, _):
            return ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: unbounded, height: height))
        case let (width?, height?, .aspectFit):
            return ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: width, height: height))
        default:
            return ImageDecodeOptions()
        }
    }
}
