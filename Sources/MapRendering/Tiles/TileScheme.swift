/// How a tile set numbers its rows (a style source's or TileJSON's `scheme`).
public enum TileScheme: String, Sendable, Equatable {
    /// Row 0 at the north (the default).
    case xyz
    /// Row 0 at the south (OSGeo's Tile Map Service).
    case tms

    /// Where the tile at `coordinate` (row 0 at the north, as the renderer
    /// counts) is stored in a set numbered this way.
    public func stored(_ coordinate: TileCoordinate) -> TileCoordinate {
        guard self == .tms else { return coordinate }
        var stored = coordinate
        stored.y = (1 << coordinate.z) - 1 - coordinate.y
        return stored
    }
}
