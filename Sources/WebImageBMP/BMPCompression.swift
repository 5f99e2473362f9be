/// How the pixel rows of a BMP are stored, from the header's compression field (read
/// with the header version in mind: OS/2 2.x reuses 3 and 4 for its own methods).
enum BMPCompression: Sendable, Equatable {
    /// Uncompressed rows.
    case none
    /// 8-bit run-length encoding.
    case rle8
    /// 4-bit run-length encoding.
    case rle4
    /// OS/2 24-bit run-length encoding.
    case rle24
    /// Uncompressed rows whose channels are given by bit masks (with or without alpha).
    case bitFields

    /// The method for a raw compression value, or `nil` for one this decoder does not read
    /// (Huffman 1D, embedded JPEG or PNG, or an unknown value).
    init?(rawValue: UInt32, isOS2: Bool) {
        switch rawValue {
        case 0: self = .none
        case 1: self = .rle8
        case 2: self = .rle4
        case 3 where !isOS2: self = .bitFields
        case 4 where isOS2: self = .rle24
        case 6 where !isOS2: self = .bitFields
        default: return nil
        }
    }

    /// Whether rows are run-length encoded.
    var isRunLength: Bool {
        switch self {
        case .rle4, .rle8, .rle24: true
        case .none, .bitFields: false
        }
    }
}
