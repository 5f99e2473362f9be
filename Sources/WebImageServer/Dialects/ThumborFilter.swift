/// One of thumbor's filters as a URL writes it, `name(argument,argument)`: its name and its
/// arguments, each trimmed of spaces (empty ones kept; an omitted argument keeps its
/// default).
struct ThumborFilter: Sendable, Equatable {
    /// The filter's name.
    let name: String
    /// The arguments, in order; empty for `name()`.
    let arguments: [String]

    /// The filters of the text after `filters:`, split as thumbor splits it: at each `):`.
    /// A piece without `(` or `)` is kept with its whole text as its name, so that thumbor's
    /// rule — a name it does not know is skipped — applies to it too.
    ///
    /// - Throws: ``ImageServerError`` 400 for more than ``ThumborPath/maximumFilterCount``
    ///   filters.
    static func list(_ text: Substring) throws(ImageServerError) -> [ThumborFilter] {
        var filters: [ThumborFilter] = []
        var rest = text
        while !rest.isEmpty {
            guard filters.count < ThumborPath.maximumFilterCount else {
                throw ImageServerError(.badRequest, "invalid thumbor URL: more than \(ThumborPath.maximumFilterCount) filters")
            }
            let piece: Substring
            if let end = rest.range(of: "):") {
                piece = rest[..<rest.index(after: end.lowerBound)]
                rest = rest[end.upperBound...]
            } else {
                piece = rest
                rest = rest[rest.endIndex...]
            }
            guard let open = piece.firstIndex(of: "("), piece.hasSuffix(")") else {
                filters.append(ThumborFilter(name: String(piece), arguments: []))
                continue
            }
            let inside = piece[piece.index(after: open)..<piece.index(before: piece.endIndex)]
            let arguments =
                inside.allSatisfy(\.isWhitespace)
                ? [] : inside.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
            filters.append(ThumborFilter(name: String(piece[..<open]), arguments: arguments))
        }
        return filters
    }
}
