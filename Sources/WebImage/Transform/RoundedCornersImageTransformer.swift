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
    /// `border` drawn inside the outline. Everything outside becomes clear.
    package func clippedToRoundedRectangle(radius: Double, corners: ImageCorners, border: ImageBorder?) -> Bitmap {
        let width = Double(self.width), height = Double(self.height)
        let radius = min(max(radius, 0), min(width, height) / 2)
        let borderWidth = border.map { max(0, $0.width) } ?? 0
        let borderColour = border?.colour.premultipliedFloats ?? SIMD4()
        let reach = max(radius, borderWidth) + 1
        return mappingRows(premultiplied: true) { y, row in
            let centreY = Double(y) + 0.5
            let nearTop = centreY < reach, nearBottom = centreY > height - reach
            for x in 0..<self.width {
                let centreX = Double(x) + 0.5
                guard nearTop || nearBottom || centreX < reach || centreX > width - reach else { continue }
                // How far inside the outline the pixel's centre lies.
                var inside = min(centreX, centreY, width - centreX, height - centreY)
                let cornerX = centreX < radius ? radius : centreX > width - radius ? width - radius : nil
                let cornerY = centreY < radius ? radius : centreY > height - radius ? height - radius : nil
                if let cornerX, let cornerY, corners.contains(Self.corner(left: centreX < radius, top: centreY < radius)) {
                    let dx = centreX - cornerX, dy = centreY - cornerY
                    inside = radius - (dx * dx + dy * dy).squareRoot()
                }
                var pixel = row[x]
                if borderWidth > 0 {
                    let line = Float(min(max(borderWidth - inside + 0.5, 0), 1))
                    let stroke = borderColour * line
                    pixel = stroke + pixel * (1 - stroke.w)
                }
                row[x] = pixel * Float(min(max(inside + 0.5, 0), 1))
            }
        }
    }

    private static func corner(left: Bool, top: Bool) -> ImageCorners {
        switch (left, top) {
        case (true, true): .topLeft
        case (false, true): .topRight
        case (true, false): .bottomLeft
        case (false, false): .bottomRight
        }
    }
}
