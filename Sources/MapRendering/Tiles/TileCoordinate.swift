/// One slippy-map tile: zoom level, column (x, from the antimeridian
/// eastwards) and row (y, from the top), each tile 256 × 256 pixels.
public struct TileCoordinate: Hashable, Sendable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int

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
