extension VectorMapFrame {
    /// Calls `body(offset, owner, value, u, v)` for each output pixel whose
    /// centre lies on a tile of `zoom` that `lookup` gives a picture for:
    /// `offset` is the pixel's byte offset in the frame's RGBA rows, `owner`
    /// the tile (the pixel's own or an ancestor) whose `value` covers it, and
    /// (`u`, `v`) where the pixel lies across `owner`, each in 0..<1. The
    /// walk of raster and hillshade layers alike: `lookup` runs once per
    /// change of tile, `cancellation` is polled every 64 rows.
    @inline(__always)
    func forEachPixel<Value>(onTilesOf zoom: Int, cancellation: RenderCancellation,
                             lookup: (TileCoordinate) -> (tile: TileCoordinate, value: Value)?,
                             _ body: (Int, TileCoordinate, Value, Double, Double) -> Void) throws {
        let n = 1 << zoom, scale = Double(n)
        var lastKey: TileCoordinate?, last: (tile: TileCoordinate, value: Value)?
        for y in 0..<pixelHeight {
            if y % 64 == 0 { try cancellation.check() }
            for x in 0..<pixelWidth {
                let unit = unitPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let tx = unit.x * scale, ty = unit.y * scale
                guard ty >= 0, ty < scale, tx.isFinite else { continue }
                let key = TileCoordinate(z: zoom, x: ((Int(tx.rounded(.down)) % n) + n) % n, y: Int(ty.rounded(.down)))
                if key != lastKey { (lastKey, last) = (key, lookup(key)) }
                guard let (owner, value) = last else { continue }
                // An ancestor's picture spans 2^k of this zoom's tiles.
                let span = Double(1 << (zoom - owner.z))
                let (px, py) = (tx / span, ty / span)
                body((y * pixelWidth + x) * 4, owner, value, px - px.rounded(.down), py - py.rounded(.down))
            }
        }
    }
}
