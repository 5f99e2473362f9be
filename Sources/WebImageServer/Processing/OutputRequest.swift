import WebImage

/// How a result is written beyond what its spec says: the formats `format=best` tries, and
/// whether the source's authorship is kept (`keep_copyright`).
struct OutputRequest: Sendable {
    /// The candidates of `format=best` (see ``OutputFormatChoice/bestCandidates``); `nil`
    /// when the spec does not ask for the smallest.
    let bestCandidates: [ImageFormat]?
    /// Whether the source's EXIF `Copyright` and `Artist` and XMP `dc:rights` are written
    /// into the result.
    let keepsCopyright: Bool
}
