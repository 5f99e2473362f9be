import Foundation
import WebImageCore

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
        guard !text.trimmingWhitespace().isEmpty else {
            throw TransformSpecError(operation: nil, message: "the spec is empty; write operations such as resize=400x300|blur=2")
        }
        var sawFormat = false
        for operation in operations {
            let trimmed = operation.trimmingWhitespace()
            guard !trimmed.isEmpty else {
                throw TransformSpecError(operation: nil, message: "an operation between two '|' is empty")
            }
            let parts = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].lowercased()
            let arguments =
                parts.count > 1
                ? parts[1].split(separator: ",", omittingEmptySubsequences: false).map {
                    $0.trimmingWhitespace()
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

    /// Decode options that let a coder produce, while decoding, the size the spec's first
    /// resize asks for (shrink-on-load: a JPEG is decoded at a reduced DCT scale, a WebP
    /// by libwebp's scaler, and every other format is resampled to that size before the
    /// rest of the chain runs); plain options when the chain does not start with a resize.
    ///
    /// Quarter turns and flips before the resize are looked through (a quarter turn swaps
    /// the box's sides), since they commute with scaling. The result of the chain is the
    /// one a full-size decode gives: exactly for formats the coder resamples with the
    /// chain's own filter, and within the difference between libjpeg's (or libwebp's)
    /// reduced decode and that filter for JPEG and WebP — see the article on
    /// shrink-on-load for the measured figures. A fill resize decodes to the size that
    /// covers its box (`ImageDecodeOptions.coversThumbnailBox`) and is cropped after; a
    /// stretch decodes to its box.
    public var decodeOptions: ImageDecodeOptions {
        var swapsSides = false
        for transformer in transformers {
            if transformer is FlippingImageTransformer { continue }
            if let rotation = transformer as? RotatingImageTransformer, let turns = rotation.quarterTurns {
                if !turns.isMultiple(of: 2) { swapsSides.toggle() }
                continue
            }
            guard let resize = transformer as? ResizingImageTransformer else { break }
            return resize.decodeOptions(swappingSides: swapsSides)
        }
        return ImageDecodeOptions()
    }
}
