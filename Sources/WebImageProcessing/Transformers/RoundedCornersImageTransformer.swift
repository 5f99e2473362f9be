import WebImageCore

/// Rounds some or all corners of every frame, leaving them clear, optionally with a border
/// along the rounded outline.
///
/// Edges are anti-aliased: a pixel that the outline crosses keeps the part of it inside.
public struct RoundedCornersImageTransformer: ImageTransformer {
    /// The corners' radius in pixels (at most half the shorter side).
    public var radius: Double
    /// The corners that are rounded.
    public var corners: ImageCorners
    /// A line along the inside of the outline, or `nil` for none.
    public var border: ImageBorder?

    /// Creates a transformer that rounds `corners` by `radius` pixels.
    public init(radius: Double, corners: ImageCorners = .all, border: ImageBorder? = nil) {
        self.radius = radius
        self.corners = corners
        self.border = border
    }

    /// `round-R`, then the corners (`-tl`, `-tr`, …) unless all are rounded, then the border.
    public var key: String {
        var key = "round-\(Self.format(radius))"
        if corners != .all {
            key += ImageCorners.names.filter { corners.contains($0.1) }.map { "-\($0.0)" }.joined()
        }
        if let border { key += border.keySuffix }
        return key
    }

    /// The image with rounded corners; `nil` when the radius is 0 and there is no border.
    public func transform(_ image: Image) -> Image? {
        guard radius > 0 || border != nil else { return nil }
        return image.replacingFrames { bitmap in
            bitmap.clippedToRoundedRectangle(radius: radius, corners: corners, border: border)
        }
    }

    /// A number as short as it can be written: `12` rather than `12.0`.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension Bitmap {
    /// This bitmap clipped to a rectangle whose `corners` are rounded by `radius`, with a
    /// `border` inside the outline, in SDWebImage's geometry: the picture is clipped to the
    /// outline inset by the border's width, and the border is a line of that width centred
    /// on the outline inset by `floor(width) + 0.5` with corners of `radius - 0.5`. So a
    /// 1-pixel border covers the second pixel from each edge and leaves the first clear.
    /// Everything outside becomes clear.
    package func clippedToRoundedRectangle(radius: Double, corners: ImageCorners, border: ImageBorder?) -> Bitmap {
        let width = Double(self.width), height = Double(self.height)
        let halfSide = min(width, height) / 2
        let radius = min(max(radius, 0), halfSide)
        let borderWidth = min(border.map { max(0, $0.width) } ?? 0, halfSide)
        let borderColour = border?.colour.premultipliedFloats ?? SIMD4()
        let picture = RoundedOutline(inset: borderWidth, radius: radius, corners: corners, width: width, height: height)
        let stroke = RoundedOutline(
            inset: borderWidth.rounded(.down) + 0.5, radius: radius > 0.5 ? radius - 0.5 : 0, corners: corners,
            width: width, height: height)
        // Pixels further than this from every edge are inside the picture and off the line.
        let reach = radius + 1.5 * borderWidth + 2
        return mappingRows(premultiplied: true) { y, row in
            let centreY = Double(y) + 0.5
            let nearTop = centreY < reach, nearBottom = centreY > height - reach
            for x in 0..<self.width {
                let centreX = Double(x) + 0.5
                guard nearTop || nearBottom || centreX < reach || centreX > width - reach else { continue }
                var pixel = row[x] * Float(min(max(picture.inside(centreX, centreY) + 0.5, 0), 1))
                if borderWidth > 0 {
                    // The part of the pixel's width that the line, centred on the outline, covers.
                    let offset = stroke.inside(centreX, centreY)
                    let covered = max(0, min(offset + 0.5, borderWidth / 2) - max(offset - 0.5, -borderWidth / 2))
                    let line = borderColour * Float(min(covered, 1))
                    pixel = line + pixel * (1 - line.w)
                }
                row[x] = pixel
            }
        }
    }
}
