/// What an Ultra HDR (or ISO 21496-1) JPEG says about its gain map, kept as the source
/// wrote it so that an encoder can write it again, with the few fields a reader reports.
///
/// The segments are stored whole (without their `APPn` signatures): the gain map's XMP
/// packet with its `hdrgm` attributes, the gain map's binary ISO 21496-1 metadata, and the
/// primary image's ISO 21496-1 version packet. Nothing here is the pixels' business:
/// geometric steps change the ``GainMap/bitmap`` and leave this as it is.
public struct GainMapMetadata: Sendable, Hashable {
    /// The gain map image's XMP packet (the `hdrgm` description), or `nil` when it has none.
    public var gainMapXMP: [UInt8]?
    /// The gain map image's ISO 21496-1 metadata (the bytes after the
    /// `urn:iso:std:iso:ts:21496:-1` name), or `nil` when it has none.
    public var gainMapISO: [UInt8]?
    /// The primary image's ISO 21496-1 version packet (the bytes after the name), or `nil`
    /// when the primary announced none.
    public var primaryISO: [UInt8]?
    /// Whether the primary image's XMP announced the gain map (`hdrgm:Version`), so that a
    /// writer announces it the same way.
    public var primaryAnnouncesXMP: Bool
    /// The number of colour channels the metadata describes: 1 (the same gain for red,
    /// green and blue) or 3.
    public var channelCount: Int
    /// How much brighter than SDR white the HDR rendition may be, in stops (log2): XMP
    /// `hdrgm:HDRCapacityMax`, or the ISO alternate headroom; `nil` when neither says.
    public var headroom: Double?

    /// Creates gain-map metadata from its segments and reported fields.
    public init(
        gainMapXMP: [UInt8]?, gainMapISO: [UInt8]?, primaryISO: [UInt8]?, primaryAnnouncesXMP: Bool, channelCount: Int,
        headroom: Double?
    ) {
        self.gainMapXMP = gainMapXMP
        self.gainMapISO = gainMapISO
        self.primaryISO = primaryISO
        self.primaryAnnouncesXMP = primaryAnnouncesXMP
        self.channelCount = channelCount
        self.headroom = headroom
    }
}
