import Foundation
import Raster

/// The tiles of one zoom level that cover a view, and where each lands in
/// output pixels: the one rule both tile renderers (raster and vector) use.
/// Columns wrap around the antimeridian, so a view across it draws; rows
/// past the poles are left out. The last column (row) is the one holding the
/// view's last pixel, not the one starting at its right (bottom) edge.
///
/// A view may be turned by a bearing (MapLibre's: the map is rotated about
/// the view's centre so the bearing's direction points up). Its cover is then
/// every tile the turned rectangle touches, found row by row as MapLibre's
/// tile cover scans the view's quadrilateral.
struct TileCover: Sequence {
    /// A tile and where it lands in output pixels.
    struct Placed {
        /// The tile to read (x wrapped into 0..<2^zoom).
        var tile: TileCoordinate
        /// Its top-left corner's x, in output pixels.
        var x: Double
        /// Its top-left corner's y, in output pixels.
        var y: Double
        /// Its side, in output pixels (the cover's `tileSide`).
        var tileSide: Double
        /// The cosine and sine of the angle the map is turned by on the image
        /// (clockwise, y down: minus the bearing); 1 and 0 unturned.
        var cos: Double = 1
        var sin: Double = 0
        /// The camera's pitch, nil looking straight down: `x`, `y`, `cos` and
        /// `sin` then place the tile on the map plane, and this puts the
        /// plane on the image (together one homography per tile).
        var pitch: PitchProjection?

        /// The output pixel of the point `u` pixels along the tile's top edge
        /// and `v` pixels down its left edge (measured on the tile, unturned).
        @inline(__always)
        func pixel(_ u: Double, _ v: Double) -> Point {
            let p = plane(u, v)
            guard let pitch else { return p }
            return pitch.project(p)
        }

        /// The point of ``pixel(_:_:)`` on the map plane, before the pitch
        /// (the same point without one).
        @inline(__always)
        func plane(_ u: Double, _ v: Double) -> Point {
            Point(x + cos * u - sin * v, y + sin * u + cos * v)
        }

        /// The inverse of ``pixel(_:_:)``: where output pixel `p` lies on the
        /// tile, in pixels along its top and left edges (a pixel above the
        /// far plane: where its column meets the far plane).
        func onTile(_ p: Point) -> (u: Double, v: Double) {
            let p = pitch?.unproject(p) ?? p
            let dx = p.x - x, dy = p.y - y
            return (cos * dx + sin * dy, -sin * dx + cos * dy)
        }

        /// Whether the map is turned or pitched (its tiles are no upright squares).
        var isTurned: Bool { sin != 0 || cos != 1 || pitch != nil }
    }

    let zoom: Int
    /// One tile's side, in output pixels.
    let tileSide: Double
    private let left: Double
    private let top: Double
    private let pixelWidth: Int
    private let pixelHeight: Int
    /// Cosine and sine of the turn (see ``Placed``).
    private let cos: Double
    private let sin: Double
    /// The camera's pitch (see ``Placed``).
    private let pitch: PitchProjection?
    /// Past ``levelsOfDetailPitch``, the tiles of several zooms (nearer the
    /// centre deeper), in place of `rows`.
    private var detail: [DetailTile]?
    /// Per row, the columns of tiles the view touches; empty when nothing shows.
    private var rows: [(row: Int, columns: ClosedRange<Int>)]

    /// At most this many rows are scanned one by one; a view spanning more
    /// (a hostile zoom range) is counted and covered by its bounding box,
    /// which any tile limit refuses anyway.
    static let maximumScannedRows = 4096

    /// The cover of a view `pixelWidth` × `pixelHeight` output pixels whose
    /// top-left corner, unturned, is at (`left`, `top`) in output pixels of
    /// the whole world, where a tile of `zoom` is `tileSide` pixels across,
    /// turned by `bearing` degrees about its centre and seen through `pitch`:
    /// then the view is the ground the image shows (up to MapLibre's far
    /// plane), and past ``levelsOfDetailPitch`` the tiles farther from the
    /// centre come from lower zooms, down to `minimumZoom`, as in MapLibre.
    init(zoom: Int, tileSide: Double, left: Double, top: Double, pixelWidth: Int, pixelHeight: Int, bearing: Double = 0,
         pitch: PitchProjection? = nil, minimumZoom: Int = 0) {
        self.zoom = zoom
        self.tileSide = tileSide
        self.left = left
        self.top = top
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.pitch = pitch
        let angle = -bearing * .pi / 180
        (cos, sin) = bearing.truncatingRemainder(dividingBy: 360) == 0 ? (1, 0) : (Foundation.cos(angle), Foundation.sin(angle))
        let count = 1 << zoom
        rows = []
        guard tileSide > 0, tileSide.isFinite else { return }
        let (cos, sin) = (self.cos, self.sin)
        // The view's corners in world pixels: its centre plus each corner's offset turned back.
        let cx = left + Double(pixelWidth) / 2, cy = top + Double(pixelHeight) / 2
        let hw = Double(pixelWidth) / 2, hh = Double(pixelHeight) / 2
        let offsets = pitch.map { $0.groundCorners.map { (dx: $0.x - hw, dy: $0.y - hh) } } ?? [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
        let corners = offsets.map { (dx: Double, dy: Double) -> (x: Double, y: Double) in
            (cx + cos * dx + sin * dy, cy - sin * dx + cos * dy)
        }
        if let pitch, pitch.pitch > Self.levelsOfDetailPitch {
            detail = Self.detailTiles(zoom: zoom, tileSide: tileSide, corners: corners, center: (cx, cy), minimumZoom: Swift.min(minimumZoom, zoom))
            return
        }
        let upright = sin == 0 && pitch == nil
        let minX = upright ? left : corners.map(\.x).min()!, maxX = upright ? left + Double(pixelWidth) : corners.map(\.x).max()!
        let minY = upright ? top : corners.map(\.y).min()!, maxY = upright ? top + Double(pixelHeight) : corners.map(\.y).max()!
        func columns(_ low: Double, _ high: Double) -> ClosedRange<Int> {
            let first = Int((low / tileSide).rounded(.down))
            return first...Swift.max(first, Int((high / tileSide).rounded(.up)) - 1)
        }
        let firstRow = Swift.max(0, Int((minY / tileSide).rounded(.down)))
        let lastRow = Swift.min(count - 1, Swift.max(firstRow, Int((maxY / tileSide).rounded(.up)) - 1))
        guard firstRow <= lastRow else { return }
        let box = columns(minX, maxX)
        boxCount = box.count * (lastRow - firstRow + 1)
        if lastRow - firstRow >= Self.maximumScannedRows {
            boxOnly = (firstRow...lastRow, box)
        } else if upright {
            rows = (firstRow...lastRow).map { ($0, box) }
        } else {
            // Each row's band cut from the turned rectangle: its x extent names the columns.
            for row in firstRow...lastRow {
                let y0 = Double(row) * tileSide, y1 = y0 + tileSide
                var low = Double.infinity, high = -Double.infinity
                for i in 0..<4 {
                    let a = corners[i], b = corners[(i + 1) % 4]
                    if a.y >= y0, a.y <= y1 { low = Swift.min(low, a.x); high = Swift.max(high, a.x) }
                    for y in [y0, y1] where (a.y - y) * (b.y - y) < 0 {
                        let x = a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y)
                        low = Swift.min(low, x); high = Swift.max(high, x)
                    }
                }
                if low <= high { rows.append((row, columns(low, high))) }
            }
        }
    }

    /// The tiles of the view's bounding box (world-aligned).
    private var boxCount = 0
    /// The rows and columns of the bounding box when they were too many to scan.
    private var boxOnly: (rows: ClosedRange<Int>, columns: ClosedRange<Int>)?

    /// How many tiles cover the view, counted without making them (a view
    /// of more rows than ``maximumScannedRows``: its bounding box's tiles).
    var count: Int {
        if let detail { return detail.count }
        return boxOnly != nil ? boxCount : rows.reduce(0) { $0 + $1.columns.count }
    }

    func makeIterator() -> [Placed].Iterator {
        let wrap = 1 << zoom
        let cx = left + Double(pixelWidth) / 2, cy = top + Double(pixelHeight) / 2
        if let detail {
            return detail.map { tile in
                let side = tileSide * Double(1 << (zoom - tile.zoom)), count = 1 << tile.zoom
                let dx = Double(tile.column) * side - cx, dy = Double(tile.row) * side - cy
                return Placed(tile: TileCoordinate(z: tile.zoom, x: ((tile.column % count) + count) % count, y: tile.row),
                              x: Double(pixelWidth) / 2 + cos * dx - sin * dy, y: Double(pixelHeight) / 2 + sin * dx + cos * dy,
                              tileSide: side, cos: cos, sin: sin, pitch: pitch)
            }.makeIterator()
        }
        let rows = boxOnly.map { box in box.rows.map { ($0, box.columns) } } ?? self.rows
        return rows.flatMap { row, columns in
            columns.map { column in
                // The tile's corner relative to the view's centre, turned, from the image's centre.
                guard sin != 0 || pitch != nil else {
                    return Placed(tile: TileCoordinate(z: zoom, x: ((column % wrap) + wrap) % wrap, y: row),
                                  x: Double(column) * tileSide - left, y: Double(row) * tileSide - top, tileSide: tileSide)
                }
                let dx = Double(column) * tileSide - cx, dy = Double(row) * tileSide - cy
                return Placed(tile: TileCoordinate(z: zoom, x: ((column % wrap) + wrap) % wrap, y: row),
                              x: Double(pixelWidth) / 2 + cos * dx - sin * dy, y: Double(pixelHeight) / 2 + sin * dx + cos * dy,
                              tileSide: tileSide, cos: cos, sin: sin, pitch: pitch)
            }
        }.makeIterator()
    }
}
