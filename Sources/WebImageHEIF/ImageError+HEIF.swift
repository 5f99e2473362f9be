#if HEIF
// Compiled only with the `HEIF` package trait, so that a build without it never imports
// CHEIF and needs no libheif headers.
import CHEIF
import WebImageCore

extension ImageError {
    /// The error for a failed libheif call, or `nil` when `error` reports success:
    /// ``Code/imageTooLarge`` for libheif's security limits, ``Code/unsupportedFormat``
    /// for a codec or feature this libheif lacks, `failure` otherwise.
    init?(heif error: heif_error, _ call: String, failure: Code = .badImageData) {
        guard error.code != heif_error_Ok else { return nil }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        let code: Code
        if error.subcode == heif_suberror_Security_limit_exceeded {
            code = .imageTooLarge
        } else if error.code == heif_error_Unsupported_feature || error.code == heif_error_Unsupported_filetype
            || error.subcode == heif_suberror_Unsupported_codec
        {
            code = .unsupportedFormat
        } else {
            code = failure
        }
        self.init(code, "libheif: \(call) failed: \(message)")
    }
}
#endif
