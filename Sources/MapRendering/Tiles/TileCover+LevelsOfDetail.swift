import Foundation

extension TileCover {
    /// A tile of a cover with levels of detail: its zoom, its column (not
    /// wrapped: a copy of the world left or right counts on) and row.
    struct DetailTile: Equatable {
        var zoom: Int
        var column: Int
        var row: Int
    }

    /// The pitch above which tiles far from the centre come from lower zooms,
    /// as MapLibre's `coveringTiles` does (at most this, every tile is of the cover's zoom).
    static let levelsOfDetailPitch = 60.0
    /// MapLibre's `radiusOfMaxLvlLodInTiles`: the tiles of the cover's own zoom
    /// reach at least this many tiles from the centre.
    static let fullDetailRadius = 3
    /// The most quadtree nodes a cover visits before it stops splitting (a
    /// hostile view); MapLibre visits a few hundred.
    static let maximumDetailNodes = 100_000

    /// MapLibre's `coveringTiles` under pitch: a depth-first walk of the tile
    /// quadtree of each copy of the world (MapLibre's −3…3) the ground touches,
    /// keeping the tiles that meet the ground quadrilateral `corners` (world
    /// pixels, convex) and splitting a tile while it is nearer the centre
    /// (`center`, world pixels) than `3 + 2^(zoom − its zoom) − 2` tiles of
    /// `zoom` (each `tileSide` pixels) along x or y, and not below `minimumZoom`.
    /// Sorted nearest the centre first, as MapLibre draws them.
    static func detailTiles(zoom: Int, tileSide: Double, corners: [(x: Double, y: Double)], center: (x: Double, y: Double),
                            minimumZoom: Int) -> [DetailTile] {
        let n = Double(1 << zoom)
        // Everything in tiles of `zoom`.
        let quad = corners.map { (x: $0.x / tileSide, y: $0.y / tileSide) }
        let c = (x: center.x / tileSide, y: center.y / tileSide)
        guard quad.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), c.x.isFinite, c.y.isFinite else { return [] }
        let minX = quad.map(\.x).min()!, maxX = quad.map(\.x).max()!
        // Held to −4…4 before they become integers (a corner may lie 10³⁰⁰ tiles away).
        func world(_ x: Double) -> Int { Int(Swift.min(Swift.max((x / n).rounded(.down), -4), 4)) }
        let first = Swift.min(3, Swift.max(-3, world(minX)))
        let wraps = first...Swift.max(first, Swift.min(3, world(maxX)))
        var stack = wraps.map { DetailTile(zoom: 0, column: $0, row: 0) }
        var result: [DetailTile] = []
        var visited = 0
        while let tile = stack.popLast() {
            visited += 1
            let side = Double(1 << (zoom - tile.zoom))
            let x0 = Double(tile.column) * side, y0 = Double(tile.row) * side
            guard intersects(square: (x0, y0, side), quad) else { continue }
            let dx = Swift.max(Swift.max(x0 - c.x, 0), c.x - (x0 + side)), dy = Swift.max(Swift.max(y0 - c.y, 0), c.y - (y0 + side))
            let distanceToSplit = Double(fullDetailRadius) + side - 2
            if tile.zoom == zoom || (Swift.max(dx, dy) > distanceToSplit && tile.zoom >= minimumZoom) || visited > maximumDetailNodes {
                result.append(tile)
                continue
            }
            for i in 0..<4 {
                stack.append(DetailTile(zoom: tile.zoom + 1, column: tile.column * 2 + i % 2, row: tile.row * 2 + i / 2))
            }
        }
        func distance(_ t: DetailTile) -> Double {
            let side = Double(1 << (zoom - t.zoom))
            let x = (Double(t.column) + 0.5) * side - c.x, y = (Double(t.row) + 0.5) * side - c.y
            return x * x + y * y
        }
        return result.map { ($0, distance($0)) }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// Whether the square (`x`, `y`, `side`) and the convex quadrilateral
    /// `quad` overlap (separating axes: the square's two and the quad's four edge normals).
    private static func intersects(square: (x: Double, y: Double, side: Double), _ quad: [(x: Double, y: Double)]) -> Bool {
        let box = [(square.x, square.y), (square.x + square.side, square.y), (square.x + square.side, square.y + square.side),
                   (square.x, square.y + square.side)]
        var axes: [(Double, Double)] = [(1, 0), (0, 1)]
        for i in quad.indices {
            let a = quad[i], b = quad[(i + 1) % quad.count]
            axes.append((a.y - b.y, b.x - a.x))
        }
        for (ax, ay) in axes where ax != 0 || ay != 0 {
            let p = box.map { $0.0 * ax + $0.1 * ay }, q = quad.map { $0.x * ax + $0.y * ay }
            if p.max()! < q.min()! || q.max()! < p.min()! { return false }
        }
        return true
    }
}
