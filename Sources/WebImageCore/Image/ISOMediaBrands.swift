import Foundation

/// The brands in the `ftyp` box at the start of an ISO base media file (HEIF, HEIC, AVIF):
/// the major brand and the compatible ones, read without trusting the box's size.
///
/// ``ImageFormat/init(sniffing:)`` names a file by its major brand, as SDWebImage does;
/// coders use the full list to route a generic HEIF (`mif1`) that holds AV1 to the AVIF
/// coder and one that holds HEVC to the HEIF coder.
public struct ISOMediaBrands: Sendable, Hashable {
    /// The major brand, such as `"avif"`, `"heic"` or `"mif1"`.
    public let major: String
    /// The compatible brands, in file order.
    public let compatible: [String]

    /// The brands of `data`, or `nil` when it does not start with an `ftyp` box.
    public init?(_ data: Data) {
        guard data.count >= 16 else { return nil }
        let head = [UInt8](data.prefix(4096))
        guard head[4] == 0x66, head[5] == 0x74, head[6] == 0x79, head[7] == 0x70 else { return nil }  // "ftyp"
        let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = min(max(boxSize, 16), head.count)
        func brand(at offset: Int) -> String {
            String(decoding: head[offset..<offset + 4], as: UTF8.self)
        }
        major = brand(at: 8)
        compatible = stride(from: 16, to: end - 3, by: 4).map(brand(at:))
    }

    /// Whether `brand` is the major brand or one of the compatible ones.
    public func contains(_ brand: String) -> Bool {
        major == brand || compatible.contains(brand)
    }

    /// Whether the file declares AV1 images or sequences (`avif` or `avis`).
    public var declaresAVIF: Bool { contains("avif") || contains("avis") }
}
