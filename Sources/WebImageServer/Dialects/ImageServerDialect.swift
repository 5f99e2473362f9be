/// A URL language the image server answers. Several may be served on one port: their
/// paths are told apart by the segment after the signature (see
/// ``ImageServerConfiguration/dialects``).
///
/// Room Dialects/: other servers' URLs (imgproxy's) read into the server's own spec, with their signatures and settings.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
public enum ImageServerDialect: String, Sendable, Hashable, CaseIterable {
    /// The server's own form, `/<signature>/<spec>/plain/<percent-encoded URL>` (or a
    /// base64url source), the spec made of `name=arguments` operations separated by `|`.
    case native
    /// imgproxy's form, `/<signature>/<option>:<arguments>/…/plain/<URL>[@<extension>]` or
    /// `/<signature>/<options>/<base64url URL>[.<extension>]`, signed as imgproxy signs it
    /// (see ``ImgproxyConfiguration``).
    case imgproxy
    /// thumbor's form, `/<signature or unsafe>/…/<size>/…/filters:…/<image>`, signed as
    /// thumbor signs it (see ``ThumborConfiguration``).
    case thumbor
}
