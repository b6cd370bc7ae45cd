import Foundation

extension VectorMapFrame {
    /// Calls `body(offset, owner, value, u, v)` for each output pixel whose
    /// centre lies on a tile of `zoom` that `lookup` gives a picture for:
    /// `offset` is the pixel's byte offset in the frame's RGBA rows, `owner`
    /// the tile (the pixel's own or an ancestor) whose `value` covers it, and
    /// (`u`, `v`) where the pixel lies across `owner`, each in 0..<1. The
    /// walk of raster and hillshade layers alike: `lookup` runs once per
    /// change of tile, `cancellation` is polled every 64 rows. Only the rows
    /// `rows` (all by default).
    @inline(__always)
    func forEachPixel<Value>(onTilesOf zoom: Int, rows: Range<Int>? = nil, cancellation: RenderCancellation,
                             lookup: (TileCoordinate) -> (tile: TileCoordinate, value: Value)?,
                             _ body: (Int, TileCoordinate, Value, Double, Double) -> Void) throws {
        let n = 1 << zoom, scale = Double(n)
        var lastKey: TileCoordinate?, last: (tile: TileCoordinate, value: Value)?
        for y in rows ?? 0..<pixelHeight {
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

    /// The frame's premultiplied RGBA8 pixels, each pixel on a tile `lookup`
    /// gives a value for (as ``forEachPixel(onTilesOf:rows:cancellation:lookup:_:)``
    /// walks them) in the colour `color(owner, value, u, v)` gives (0…1 per
    /// channel, rounded as a framebuffer stores it), the rest clear. Each pixel
    /// is coloured alone, as a fragment shader colours it, so the rows are
    /// shared out in bands to every core: the bytes do not depend on the split.
    func colorPixels<Value>(onTilesOf zoom: Int, cancellation: RenderCancellation,
                            lookup: @Sendable (TileCoordinate) -> (tile: TileCoordinate, value: Value)?,
                            _ color: @Sendable (TileCoordinate, Value, Double, Double) -> SIMD4<Float>) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: pixelWidth * pixelHeight * 4)
        let bands = max(1, min(ProcessInfo.processInfo.activeProcessorCount, pixelHeight / 16))
        let (frame, height) = (self, pixelHeight)
        try pixels.withUnsafeMutableBufferPointer { buffer in
            // Safe: band b writes only the bytes of its own rows, and
            // `concurrentlyMaking` returns only when every band has.
            nonisolated(unsafe) let pixels = buffer
            let results = [Result<Void, Error>](concurrentlyMaking: bands) { band in
                Result {
                    try frame.forEachPixel(onTilesOf: zoom, rows: height * band / bands..<height * (band + 1) / bands,
                                           cancellation: cancellation, lookup: lookup) { offset, owner, value, u, v in
                        let bytes = RasterColorAdjustment.bytes(color(owner, value, u, v))
                        (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3]) = (bytes.x, bytes.y, bytes.z, bytes.w)
                    }
                }
            }
            for result in results { try result.get() }
        }
        return pixels
    }
}
