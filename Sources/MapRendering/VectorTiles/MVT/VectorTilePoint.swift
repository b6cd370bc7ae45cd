/// A vertex in tile coordinates: 0...extent across the tile, y growing downwards;
/// buffers around the tile reach outside that range.
public struct VectorTilePoint: Hashable, Sendable {
    /// Horizontal position, 0 at the tile's left edge.
    public var x: Int32
    /// Vertical position, 0 at the tile's top edge.
    public var y: Int32

    /// The point at `x`, `y`.
    @inlinable
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}
