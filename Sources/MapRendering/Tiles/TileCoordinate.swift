/// One slippy-map tile: zoom level, column (x, from the antimeridian
/// eastwards) and row (y, from the top), each tile 256 × 256 pixels.
public struct TileCoordinate: Hashable, Sendable, CustomStringConvertible {
    /// Zoom level: the world is 2^z tiles across.
    public var z: Int
    /// Column, 0 at the antimeridian, growing eastwards.
    public var x: Int
    /// Row, 0 at the top (85.05°N), growing southwards.
    public var y: Int

    /// The tile at column `x`, row `y` of zoom `z`.
    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// `z/x/y`, as in tile URLs.
    public var description: String { "\(z)/\(x)/\(y)" }

    /// Fills a `{z}/{x}/{y}` template.
    public func filling(_ template: String) -> String {
        template.replacingOccurrences(of: "{z}", with: String(z))
            .replacingOccurrences(of: "{x}", with: String(x))
            .replacingOccurrences(of: "{y}", with: String(y))
    }
}
