import NIOCore

/// The part of a body a failed attempt received, kept so that the next attempt asks for
/// the rest only (`Range` with `If-Range`).
struct ResumableBody {
    /// The bytes received so far.
    var bytes: ByteBuffer
    /// The `If-Range` value: the response's strong ETag, or else its `Last-Modified`.
    let validator: String
    /// The response the bytes belong to; it stays the download's response when a `206`
    /// brings the rest.
    let response: DownloadResponseHead
    /// The whole body's length, when the response gave it.
    let totalLength: Int64?

    /// How many bytes are kept.
    var count: Int { bytes.readableBytes }

    /// The part `body` of `response` as something to resume, or `nil` when the response
    /// does not allow ranges (`Accept-Ranges: bytes` with a strong ETag or a
    /// `Last-Modified`) or nothing is worth resuming.
    init?(response: DownloadResponseHead, body: ByteBuffer?, totalLength: Int64?) {
        guard response.statusCode == 200, let body, body.readableBytes > 0,
            totalLength.map({ Int64(body.readableBytes) < $0 }) ?? true,
            let ranges = response.headers.first(name: "Accept-Ranges"),
            ranges.lowercased().split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "bytes" })
        else { return nil }
        if let eTag = response.eTag, !eTag.hasPrefix("W/") {
            validator = eTag
        } else if let lastModified = response.lastModified {
            validator = lastModified
        } else {
            return nil
        }
        self.bytes = body
        self.response = response
        self.totalLength = totalLength
    }

    /// Whether the `Content-Range` of a `206` continues these bytes: it starts right after
    /// them and, when both are known, names the same total length.
    func isContinued(by contentRange: String?) -> Bool {
        // bytes <first>-<last>/<total or *>
        guard let contentRange, contentRange.lowercased().hasPrefix("bytes ") else { return false }
        let spec = contentRange.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let dash = parts[0].firstIndex(of: "-"), let first = Int64(parts[0][..<dash]) else { return false }
        guard first == Int64(count) else { return false }
        if let totalLength, let total = Int64(parts[1]) {
            return total == totalLength
        }
        return true
    }
}
