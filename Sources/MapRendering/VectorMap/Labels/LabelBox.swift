import Raster

/// An axis-aligned box in output pixels: what a label (or one glyph of a
/// label along a line) covers, halo included.
struct LabelBox: Equatable, Sendable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    /// The box grown by `padding` on every side.
    func padded(_ padding: Double) -> LabelBox {
        LabelBox(minX: minX - padding, minY: minY - padding, maxX: maxX + padding, maxY: maxY + padding)
    }

    /// The box scaled by `k` about the origin (the point it is placed about).
    func scaled(by k: Double) -> LabelBox {
        LabelBox(minX: minX * k, minY: minY * k, maxX: maxX * k, maxY: maxY * k)
    }

    /// The box moved by `shift`.
    func offset(by shift: Point) -> LabelBox {
        LabelBox(minX: minX + shift.x, minY: minY + shift.y, maxX: maxX + shift.x, maxY: maxY + shift.y)
    }

    /// Whether the two boxes share any area (touching edges do not count).
    func intersects(_ other: LabelBox) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// Whether the box lies wholly inside `0…width × 0…height`.
    func isInside(width: Double, height: Double) -> Bool {
        minX >= 0 && minY >= 0 && maxX <= width && maxY <= height
    }
}
