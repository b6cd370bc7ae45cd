import Foundation

/// The tiles of one zoom level that cover a view, and where each lands in
/// output pixels: the one rule both tile renderers (raster and vector) use.
/// Columns wrap around the antimeridian, so a view across it draws; rows
/// past the poles are left out. The last column (row) is the one holding the
/// view's last pixel, not the one starting at its right (bottom) edge.
struct TileCover: Sequence {
    /// A tile and its top-left corner in output pixels.
    struct Placed {
        /// The tile to read (x wrapped into 0..<2^zoom).
        var tile: TileCoordinate
        /// Its left edge, in output pixels.
        var x: Double
        /// Its top edge, in output pixels.
        var y: Double
        /// Its side, in output pixels (the cover's `tileSide`).
        var tileSide: Double
    }

    let zoom: Int
    /// One tile's side, in output pixels.
    let tileSide: Double
    private let left: Double
    private let top: Double
    private let columns: ClosedRange<Int>?
    private let rows: ClosedRange<Int>?

    /// The cover of a view `pixelWidth` × `pixelHeight` output pixels whose
    /// top-left corner is at (`left`, `top`) in output pixels of the whole
    /// world, where a tile of `zoom` is `tileSide` pixels across.
    init(zoom: Int, tileSide: Double, left: Double, top: Double, pixelWidth: Int, pixelHeight: Int) {
        self.zoom = zoom
        self.tileSide = tileSide
        self.left = left
        self.top = top
        let count = 1 << zoom
        let firstColumn = Int((left / tileSide).rounded(.down))
        let lastColumn = Swift.max(firstColumn, Int(((left + Double(pixelWidth)) / tileSide).rounded(.up)) - 1)
        let firstRow = Swift.max(0, Int((top / tileSide).rounded(.down)))
        let lastRow = Swift.min(count - 1, Swift.max(firstRow, Int(((top + Double(pixelHeight)) / tileSide).rounded(.up)) - 1))
        let visible = tileSide > 0 && tileSide.isFinite && firstRow <= lastRow
        columns = visible ? firstColumn...lastColumn : nil
        rows = visible ? firstRow...lastRow : nil
    }

    /// How many tiles cover the view, counted without making them.
    var count: Int {
        guard let columns, let rows else { return 0 }
        return columns.count * rows.count
    }

    func makeIterator() -> [Placed].Iterator {
        guard let columns, let rows else { return [].makeIterator() }
        let wrap = 1 << zoom
        return rows.flatMap { row in
            columns.map { column in
                Placed(tile: TileCoordinate(z: zoom, x: ((column % wrap) + wrap) % wrap, y: row),
                       x: Double(column) * tileSide - left, y: Double(row) * tileSide - top, tileSide: tileSide)
            }
        }.makeIterator()
    }
}
