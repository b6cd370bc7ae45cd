import Raster

extension Canvas {
    /// Fills `polygons` (non-zero winding) as a GPU fills triangles without
    /// anti-aliasing: every pixel whose centre lies inside gets the colour
    /// `shader` gives it (premultiplied, 0…1), at full strength; a centre on a
    /// left edge is inside, on a right edge outside. How MapLibre draws a
    /// `fill` layer's triangles; its `fill-antialias` outline is drawn apart.
    ///
    /// Edges are swept by row (each edge visits only the rows it spans), so
    /// the work is the rows' crossings plus the pixels filled.
    mutating func fillPixelCentres(polygons: [[Point]], shader: (Int, Int) -> SIMD4<Float>) {
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
                for column in from..<to { blend(premultiplied: shader(column, row), x: column, y: row) }
            }
        }
    }
}
