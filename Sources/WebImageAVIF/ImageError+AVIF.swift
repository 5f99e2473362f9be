#if AVIF
// Compiled only with the `AVIF` package trait, so that a build without it never imports
// CAVIF and needs no libavif headers.
import CAVIF
import WebImageCore

extension ImageError {
    /// The error for a failed libavif call: ``Code/unsupportedFormat`` when libavif lacks
    /// a codec or a feature the file needs (including a colour matrix its RGB conversion
    /// does not handle), `failure` otherwise (bad data when decoding,
    /// a failed encode when writing). The message names the call, libavif's result and
    /// its diagnostic, when it left one.
    init(avif result: avifResult, _ call: String, diagnostic: String = "", failure: Code = .badImageData) {
        let unsupported = [AVIF_RESULT_NO_CODEC_AVAILABLE, AVIF_RESULT_NOT_IMPLEMENTED, AVIF_RESULT_REFORMAT_FAILED].contains(result)
        let reason = String(cString: avifResultToString(result))
        let detail = diagnostic.isEmpty ? reason : "\(reason) (\(diagnostic))"
        self.init(unsupported ? .unsupportedFormat : failure, "libavif: \(call) failed: \(detail)")
    }
}

extension avifDiagnostics {
    /// The message libavif left in this diagnostics buffer, or an empty string.
    var message: String {
        var copy = self
        return withUnsafeBytes(of: &copy.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
#endif
