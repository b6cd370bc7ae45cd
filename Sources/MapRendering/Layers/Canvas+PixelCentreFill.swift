import Raster

extension Canvas {
    /// Fills `polygons` (non-zero winding) as a GPU fills triangles without
    /// anti-aliasing: every pixel whose centre lies inside gets the colour
    /// `shader` gives it (premultiplied, 0…1), at full strength; a centre on a
    /// left edge is inside, on a right edge outside. How MapLibre draws a
    /// `fill` layer's triangles; its `fill-antialias` outline is drawn apart.
    mutating func fillPixelCentres(polygons: [[Point]], shader: (Int, Int) -> SIMD4<Float>) {
        let (width, rows) = (width, rows)
        Self.forEachPixelCentre(in: polygons, width: width, rows: rows) { column, row in
            blend(premultiplied: shader(column, row), x: column, y: row)
        }
    }

    /// Calls `body(column, row)` for every pixel of `rows` (columns below
    /// `width`) whose centre lies inside `polygons` (non-zero winding).
    static func forEachPixelCentre(in polygons: [[Point]], width: Int, rows: Range<Int>, _ body: (Int, Int) -> Void) {
        forEachPixelCentreSpan(in: polygons, width: width, rows: rows) { row, columns in
            for column in columns { body(column, row) }
        }
    }

    /// Calls `body(row, columns)` for every run of pixels of `rows` (columns
    /// below `width`) whose centres lie inside `polygons` (non-zero winding).
    ///
    /// Edges are swept by row (each edge visits only the rows it spans), so
    /// the work is the rows' crossings plus the runs inside.
    static func forEachPixelCentreSpan(in polygons: [[Point]], width: Int, rows: Range<Int>, _ body: (Int, Range<Int>) -> Void) {
        guard width > 0, !rows.isEmpty else { return }
        /// One edge: the rows whose centres it crosses, and its line.
        struct Edge {
            var firstRow: Int, lastRow: Int
            var x0: Double, y0: Double, slope: Double
            var winding: Int
        }
        var edges: [Edge] = []
        for ring in polygons where ring.count >= 3 {
            var previous = ring[ring.count - 1]
            for current in ring {
                defer { previous = current }
                guard previous.isFinite, current.isFinite, previous.y != current.y else { continue }
                let (top, bottom) = previous.y < current.y ? (previous, current) : (current, previous)
                // Rows whose centre y + 0.5 lies in [top.y, bottom.y).
                let first = max(rows.lowerBound, Int(max(-1, min(Double(rows.upperBound), (top.y - 0.5).rounded(.up)))))
                let last = min(rows.upperBound - 1, Int(max(-1, min(Double(rows.upperBound), (bottom.y - 0.5).rounded(.up)))) - 1)
                guard first <= last else { continue }
                edges.append(Edge(firstRow: first, lastRow: last, x0: top.x, y0: top.y, slope: (bottom.x - top.x) / (bottom.y - top.y),
                                  winding: current.y > previous.y ? 1 : -1))
            }
        }
        guard !edges.isEmpty else { return }
        edges.sort { $0.firstRow < $1.firstRow }
        var next = 0
        var active: [Int] = []
        var crossings: [(x: Double, winding: Int)] = []
        for row in edges[0].firstRow..<rows.upperBound {
            active.removeAll { edges[$0].lastRow < row }
            while next < edges.count, edges[next].firstRow == row {
                active.append(next)
                next += 1
            }
            if active.isEmpty {
                if next == edges.count { break }
                continue
            }
            let y = Double(row) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for index in active {
                let edge = edges[index]
                crossings.append((edge.x0 + (y - edge.y0) * edge.slope, edge.winding))
            }
            crossings.sort { $0.x < $1.x }
            var winding = 0
            for i in crossings.indices.dropLast() {
                winding += crossings[i].winding
                guard winding != 0 else { continue }
                // Pixels whose centre x + 0.5 lies in [left, right).
                let from = max(0, Int(max(-1, min(Double(width), (crossings[i].x - 0.5).rounded(.up)))))
                let to = min(width, Int(max(-1, min(Double(width), (crossings[i + 1].x - 0.5).rounded(.up)))))
                guard from < to else { continue }
                body(row, from..<to)
            }
        }
    }

    /// A fill as MapLibre draws it, flat or under pitch: its triangles cut at
    /// pixel centres in `color`, then (with `antialias`) its outline as
    /// `fill_outline.fragment.glsl` shades it: each edge a GL line two pixels
    /// wide, a pixel's alpha `1 − smoothstep(0, 1, d)` for the distance `d`
    /// from its centre to the edge point its `v_pos` varying gives. Each edge
    /// blends on its own, so where a translucent fill's outline crosses its
    /// own pixels (and at corners) they darken, as on the GPU. Under pitch the
    /// GPU interpolates that varying perspective-correctly (by the ends'
    /// depths, `depths`; empty: all 1, flat) though it is an image position,
    /// so `v_pos` slides along the edge away from the pixel and the fringe
    /// fades out between an edge's ends. The outline is `outline` (nil: the
    /// fill's colour), kept off the fill's own pixels when the fill is opaque
    /// and has no outline colour (it wrote the depth the outline's deeper
    /// sublayer fails), and within each ring's tile square of `tiles` (empty:
    /// anywhere), as MapLibre's stencil keeps a tile's drawing to its tile:
    /// a ring's edges in its tile's buffer are not drawn.
    mutating func fillAsMapLibre(rings: [[Point]], depths: [[Double]] = [], tiles: [PixelSquare] = [], color: RGBA, outline: RGBA?,
                                 antialias: Bool) {
        let source = Self.premultipliedUnit(color)
        let lineColor = Self.premultipliedUnit(outline ?? color)
        let outlined = antialias && lineColor[3] > 0
        // An opaque fill hides whatever lies under its own pixels: its outline
        // drawn first and the fill over it is the outline kept off the fill.
        let outlineFirst = outlined && outline == nil && color.a == 255
        if outlineFirst { drawOutline(rings: rings, depths: depths, tiles: tiles, color: lineColor) }
        if color.a != 0 {
            Self.forEachPixelCentreSpan(in: rings, width: width, rows: rows) { row, columns in
                blend(premultiplied: source, row: row, columns: columns)
            }
        }
        if outlined && !outlineFirst { drawOutline(rings: rings, depths: depths, tiles: tiles, color: lineColor) }
    }

    /// The outline of `fillAsMapLibre(rings:depths:tiles:color:outline:antialias:)`
    /// in `color` (premultiplied, 0…1): each edge a two-pixel GL line faded by
    /// `1 − smoothstep(0, 1, d)`, within its ring's tile square.
    private mutating func drawOutline(rings: [[Point]], depths: [[Double]], tiles: [PixelSquare], color lineColor: SIMD4<Float>) {
        let (width, rows) = (width, rows)
        for (index, ring) in rings.enumerated() where ring.count >= 2 {
            let ringDepths = index < depths.count ? depths[index] : []
            guard ringDepths.isEmpty || ringDepths.count == ring.count else { continue }
            let tile = index < tiles.count ? tiles[index] : PixelSquare.everywhere
            for i in ring.indices {
                let j = (i + 1) % ring.count
                let (a, b) = (ring[i], ring[j])
                let (wa, wb) = ringDepths.isEmpty ? (1.0, 1.0) : (ringDepths[i], ringDepths[j])
                guard a.isFinite, b.isFinite, wa > 0, wb > 0 else { continue }
                let (dx, dy) = (b.x - a.x, b.y - a.y)
                guard dx != 0 || dy != 0 else { continue }
                // GL draws a wide line as a quad offset across its major axis by half its width (one pixel).
                let xMajor = abs(dx) >= abs(dy)
                let (lo, hi) = xMajor ? (min(a.x, b.x), max(a.x, b.x)) : (min(a.y, b.y), max(a.y, b.y))
                // Only the columns (rows) of this canvas band: an edge far off it costs nothing.
                let limit = xMajor ? (0, width) : (rows.lowerBound, rows.upperBound)
                let firstMajor = max(limit.0, Int(max(-1, min(Double(limit.1), (lo - 0.5).rounded(.up)))))
                let lastMajor = min(limit.1 - 1, Int(max(-1, min(Double(limit.1), (hi - 0.5).rounded(.up)))) - 1)
                guard firstMajor <= lastMajor else { continue }
                for major in firstMajor...lastMajor {
                    let m = Double(major) + 0.5
                    // How far along the edge in the image, then the varying's perspective-correct parameter.
                    let s = xMajor ? (m - a.x) / dx : (m - a.y) / dy
                    let across = xMajor ? a.y + s * dy : a.x + s * dx
                    let t = (s / wb) / ((1 - s) / wa + s / wb)
                    let vx = a.x + t * dx, vy = a.y + t * dy
                    guard abs(across) < 1e9 else { continue }
                    let firstMinor = Int((across - 1 - 0.5).rounded(.up)), lastMinor = Int((across + 1 - 0.5).rounded(.up)) - 1
                    guard firstMinor <= lastMinor else { continue }
                    for minor in firstMinor...lastMinor {
                        let (column, row) = xMajor ? (major, minor) : (minor, major)
                        guard column >= 0, column < width, rows.contains(row) else { continue }
                        let (px, py) = (Double(column) + 0.5, Double(row) + 0.5)
                        guard tile.contains(px, py) else { continue }
                        let d = ((vx - px) * (vx - px) + (vy - py) * (vy - py)).squareRoot()
                        guard d < 1 else { continue }
                        let k = Float(1 - d * d * (3 - 2 * d))
                        blend(premultiplied: lineColor * k, x: column, y: row)
                    }
                }
            }
        }
    }

    /// `color` premultiplied, channels 0…1.
    private static func premultipliedUnit(_ color: RGBA) -> SIMD4<Float> {
        let a = Float(color.a) / 255
        return SIMD4(Float(color.r) / 255 * a, Float(color.g) / 255 * a, Float(color.b) / 255 * a, a)
    }
}
