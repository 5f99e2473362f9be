import Foundation
import WebImage

/// A coder that times another coder's decodes into a ``DecodeTimer``, so the demo reports
/// the decode time of the pipeline's own decodes rather than a separate measurement.
///
/// It passes on the plain ``ImageCoder`` calls only: the demo uses neither progressive
/// decoding nor animation inspection.
struct TimedImageCoder: ImageCoder {
    /// The coder doing the work.
    let coder: any ImageCoder
    /// Where decode times go.
    let timer: DecodeTimer

    var decodableFormats: Set<ImageFormat> {
        coder.decodableFormats
    }

    func canDecode(_ data: Data) -> Bool {
        coder.canDecode(data)
    }

    func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { timer.record(nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
        return try coder.decode(data, options: options)
    }

    func canEncode(to format: ImageFormat) -> Bool {
        coder.canEncode(to: format)
    }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        try coder.encode(image, as: format, options: options)
    }
}
