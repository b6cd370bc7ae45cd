/// PMTiles v3 tile ids: tiles numbered zoom by zoom, each zoom along a
/// Hilbert curve, so that tiles near each other on the map are near each
/// other in the archive. Zoom z starts at (4^z − 1) / 3.
enum PMTilesTileID {
    /// The deepest zoom whose ids fit in 64 bits.
    static let maxZoom = 31

    /// The id of `tile`, or an error when it is not a tile of the world.
    static func id(of tile: TileCoordinate) throws -> UInt64 {
        guard (0...maxZoom).contains(tile.z) else {
            throw VectorTileError(.corrupt, "zoom \(tile.z) is outside 0...\(maxZoom)")
        }
        let n = UInt64(1) << UInt64(tile.z)
        guard tile.x >= 0, tile.y >= 0, UInt64(tile.x) < n, UInt64(tile.y) < n else {
            throw VectorTileError(.corrupt, "tile \(tile) lies outside the \(n)×\(n) tiles of zoom \(tile.z)")
        }
        var x = UInt64(tile.x), y = UInt64(tile.y), d: UInt64 = 0
        var s = n >> 1
        while s > 0 {
            let rx: UInt64 = x & s != 0 ? 1 : 0
            let ry: UInt64 = y & s != 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            rotate(n, &x, &y, rx, ry)
            s >>= 1
        }
        return firstID(ofZoom: tile.z) + d
    }

    /// The tile numbered `id`.
    static func tile(of id: UInt64) throws -> TileCoordinate {
        var z = 0
        while z < maxZoom && firstID(ofZoom: z + 1) <= id { z += 1 }
        let n = UInt64(1) << UInt64(z)
        var t = id - firstID(ofZoom: z)
        guard t < n * n else { throw VectorTileError(.corrupt, "tile id \(id) is past zoom \(maxZoom)") }
        var x: UInt64 = 0, y: UInt64 = 0
        var s: UInt64 = 1
        while s < n {
            let rx = 1 & (t / 2)
            let ry = 1 & (t ^ rx)
            rotate(s, &x, &y, rx, ry)
            x += s * rx
            y += s * ry
            t /= 4
            s *= 2
        }
        return TileCoordinate(z: z, x: Int(x), y: Int(y))
    }

    /// (4^z − 1) / 3: the tiles of every zoom above `z`.
    static func firstID(ofZoom z: Int) -> UInt64 { ((UInt64(1) << UInt64(2 * z)) - 1) / 3 }

    private static func rotate(_ n: UInt64, _ x: inout UInt64, _ y: inout UInt64, _ rx: UInt64, _ ry: UInt64) {
        guard ry == 0 else { return }
        if rx == 1 {
            x = n - 1 - x
            y = n - 1 - y
        }
        swap(&x, &y)
    }
}
