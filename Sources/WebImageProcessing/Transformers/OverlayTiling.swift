/// How many copies of an overlay are drawn, and where.
public enum OverlayTiling: Sendable, Equatable {
    /// One copy, at the overlay's gravity and offsets.
    case single
    /// Copies spread over the image along the axes named, as thumbor's watermark `repeat`
    /// lays them: as many whole copies as fit the side (at least as many as cover it when
    /// fewer than two fit), the first at the start and the rest spaced by the side's spare
    /// pixels shared between the gaps; with both axes and more than 100 copies, at most 6
    /// along each. An axis not named keeps the gravity and offset.
    case spread(horizontal: Bool, vertical: Bool)
    /// Copies side by side over the whole image from its top-left corner, as imgproxy's
    /// watermark position `re` replicates it: the offsets are the space between copies,
    /// half of it before the first. The gravity plays no part.
    case grid

    /// The starts of the copies along one side of `length` pixels for a copy of `tile`
    /// pixels, as ``spread(horizontal:vertical:)`` lays them; `capped` keeps at most 6.
    package static func spreadStarts(length: Int, tile: Int, capped: Bool) -> [Int] {
        guard tile > 0 else { return [0] }
        var (count, spare) = length.quotientAndRemainder(dividingBy: tile)
        if length < 2 * tile {
            count = (length + tile - 1) / tile
            spare = 10
        }
        if capped {
            count = min(6, count)
            spare = length - count * tile
        }
        let gaps = max(count, 2) - 1
        // Python's floor division: a negative spare overlaps the copies.
        let space = spare >= 0 ? spare / gaps : -((-spare + gaps - 1) / gaps)
        return (0..<max(count, 0)).map { $0 * (space + tile) }
    }

    /// How many copies `spreadStarts(length:tile:capped:)` lays along a side, before the cap.
    package static func spreadCount(length: Int, tile: Int) -> Int {
        guard tile > 0 else { return 1 }
        return length < 2 * tile ? (length + tile - 1) / tile : length / tile
    }
}
