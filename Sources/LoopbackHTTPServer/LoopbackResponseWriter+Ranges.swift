extension LoopbackResponseWriter {
    /// Responds to `request` with `body` the way a file server does, for tests of resumed
    /// and interrupted downloads.
    ///
    /// With `allowsRanges` the response says `Accept-Ranges: bytes`, and a request with
    /// `Range: bytes=<first>-` or `bytes=<first>-<last>` gets a `206` with that part and its
    /// `Content-Range`, unless its `If-Range` differs from `eTag` (then the whole body
    /// comes with a `200`); a range that starts past the end gets a `416`. Without
    /// `allowsRanges` every request gets the whole body.
    ///
    /// - Parameters:
    ///   - request: The request to answer; its `Range` and `If-Range` are read.
    ///   - body: The whole body of the resource.
    ///   - eTag: The resource's `ETag`, sent and compared with `If-Range`.
    ///   - allowsRanges: Whether the response allows ranges and answers them.
    ///   - headers: More response headers (such as `Content-Type`).
    ///   - droppingAfter: When given, the connection is closed after that many bytes of
    ///     this response's body instead of the response ending.
    /// - Returns: How many body bytes were written.
    @discardableResult
    public func respond(
        to request: LoopbackRequest,
        with body: [UInt8],
        eTag: String? = nil,
        allowsRanges: Bool,
        headers: [(String, String)] = [],
        droppingAfter: Int? = nil
    ) async -> Int {
        var headers = headers
        if let eTag {
            headers.append(("ETag", eTag))
        }
        var status = 200
        var part = body[...]
        if allowsRanges {
            headers.append(("Accept-Ranges", "bytes"))
            let ifRange = request.header("If-Range")
            if let range = request.header("Range").flatMap(Self.byteRange), ifRange == nil || ifRange == eTag {
                guard range.first < body.count else {
                    await respond(status: 416, headers: [("Content-Range", "bytes */\(body.count)")])
                    return 0
                }
                let last = min(range.last ?? body.count - 1, body.count - 1)
                status = 206
                part = body[range.first...last]
                headers.append(("Content-Range", "bytes \(range.first)-\(last)/\(body.count)"))
            }
        }
        await writeHead(status: status, headers: headers + [("Content-Length", String(part.count))])
        if let droppingAfter, droppingAfter < part.count {
            await writeBody(part.prefix(droppingAfter))
            await dropConnection()
            return droppingAfter
        }
        await writeBody(part)
        await end()
        return part.count
    }

    /// The first and last byte of a `Range: bytes=<first>-[<last>]` header; `nil` for any
    /// other form (suffix ranges, several ranges).
    private static func byteRange(_ header: String) -> (first: Int, last: Int?)? {
        guard header.hasPrefix("bytes=") else { return nil }
        let bounds = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]) else { return nil }
        if bounds[1].isEmpty {
            return (first, nil)
        }
        guard let last = Int(bounds[1]), last >= first else { return nil }
        return (first, last)
    }
}
