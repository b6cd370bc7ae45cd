/// A tile's square in output pixels, which holds the pixel centres
/// `minX ≤ x < maxX`, `minY ≤ y < maxY` (MapLibre's stencil clip of a tile).
struct PixelSquare: Sendable {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    /// No clip.
    static let everywhere = PixelSquare(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)

    /// Whether the pixel centre (`x`, `y`) lies in the square.
    func contains(_ x: Double, _ y: Double) -> Bool { x >= minX && x < maxX && y >= minY && y < maxY }
}
