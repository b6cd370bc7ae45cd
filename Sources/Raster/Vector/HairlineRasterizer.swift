/// Strokes narrower than a pixel (`Canvas.hairlineWidth`), drawn as hairlines
/// whose coverage is scaled by the width (as Skia draws strokes that thin,
/// `SkDrawTreatAsHairline`).
///
/// A map's borders, coastlines and region boundaries are tens of thousands of
/// segments a few pixels long. Outlining each as a quadrilateral plus a join
/// and accumulating their edges costs seven edges per segment for a line whose
/// joins and caps are smaller than the pixels they fall in. Here each segment
/// adds its own area to the pixels it crosses instead: walking the major axis a
/// pixel column (or row) at a time, the stroke's cross-section there is an
/// interval `width · √(1 + slope²)` tall, and each pixel gets the part of it
/// that falls in it times the length walked. A pixel's total is the stroke's
/// area in it up to the joins (sub-pixel for these widths), clamped at full
/// coverage where lines cross or double back, so nothing is blended twice.
struct HairlineRasterizer {
    /// Canvas width in pixels.
    let width: Int
    /// The canvas rows drawn (the canvas's band, see `Canvas.rows`).
    let rows: Range<Int>
    /// The stroke width in pixels (in (0, `Canvas.hairlineWidth`]).
    let lineWidth: Double
    /// Every segment that can reach the canvas: x0, y0, x1, y1, flat.
    private var segments: [Double] = []

    init(width: Int, rows: Range<Int>, lineWidth: Double) {
        self.width = width
        self.rows = rows
        self.lineWidth = lineWidth
    }

    /// Adds the segments of `points` (closed: the last point joins the first).
    /// Throws for a point that is not finite or beyond `Canvas.coordinateLimit`,
    /// as a fill does; segments that cannot reach the canvas are left out.
    mutating func add(_ points: [Point], closed: Bool) throws {
        for p in points {
            guard p.isFinite, abs(p.x) <= Canvas.coordinateLimit, abs(p.y) <= Canvas.coordinateLimit else {
                throw RasterError.invalidArgument("stroke coordinate (\(p.x), \(p.y)) is not finite or beyond ±1e12")
            }
        }
        guard points.count >= 2 else { return }
        let (w, top, h) = (Double(width) + 1, Double(rows.lowerBound) - 1, Double(rows.upperBound) + 1)
        let count = closed ? points.count : points.count - 1
        for i in 0..<count {
            let a = points[i], b = points[(i + 1) % points.count]
            // Both ends beyond one side (with a pixel of margin for the line's thickness): no pixel to reach.
            if (a.x < -1 && b.x < -1) || (a.x > w && b.x > w) || (a.y < top && b.y < top) || (a.y > h && b.y > h) { continue }
            if a == b { continue }
            segments.append(a.x); segments.append(a.y); segments.append(b.x); segments.append(b.y)
        }
    }

    /// Blends the hairlines in `color` (premultiplied as `source`) into the
    /// canvas's premultiplied `pixels` (of `rows`), a band of rows at a time,
    /// on the grid of `Canvas.bandRows(width:)`.
    func draw(into pixels: inout [UInt8], source: SIMD4<UInt32>) {
        guard !segments.isEmpty, width > 0, !self.rows.isEmpty else { return }
        let bandRows = Canvas.bandRows(width: width)
        var mask = CoverageMask(width: width, rows: min(bandRows, self.rows.count))
        var top = self.rows.lowerBound
        while top < self.rows.upperBound {
            let rows = min((top / bandRows + 1) * bandRows, self.rows.upperBound) - top
            mask.rows = rows
            // Storage is taken once per band, not once per pixel (no uniqueness checks in the walk).
            mask.cells.withUnsafeMutableBufferPointer { cells in
            mask.rowFirst.withUnsafeMutableBufferPointer { rowFirst in
            mask.rowLast.withUnsafeMutableBufferPointer { rowLast in
            segments.withUnsafeBufferPointer { s in
                let plotter = Plotter(cells: cells.baseAddress!, rowFirst: rowFirst.baseAddress!, rowLast: rowLast.baseAddress!,
                                      width: width, rows: rows)
                var i = 0
                while i < s.count {
                    let (x0, y0, x1, y1) = (s[i], s[i + 1], s[i + 2], s[i + 3])
                    i += 4
                    // Segments wholly above or below the band (plus the thickness margin) add nothing here.
                    if max(y0, y1) < Double(top) - 1 || min(y0, y1) > Double(top + rows) + 1 { continue }
                    plotter.addSegment(x0, y0 - Double(top), x1, y1 - Double(top), lineWidth: lineWidth)
                }
            }
            }
            }
            }
            mask.sweep(into: &pixels, firstRow: top - self.rows.lowerBound, canvasWidth: width, source: source)
            top += rows
        }
    }

    /// Adds segments' areas to a band's coverage cells, through pointers valid for one band.
    private struct Plotter {
        let cells: UnsafeMutablePointer<Float>
        let rowFirst: UnsafeMutablePointer<Int>
        let rowLast: UnsafeMutablePointer<Int>
        let width: Int
        let rows: Int

        /// Adds the area of the segment (band coordinates) of thickness `lineWidth` to the cells it crosses.
        func addSegment(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, lineWidth: Double) {
            let dx = x1 - x0, dy = y1 - y0
            if abs(dx) >= abs(dy) {
                // Mostly horizontal: walk columns; the cross-section is vertical.
                let (ax, ay, bx) = dx > 0 ? (x0, y0, x1) : (x1, y1, x0)
                let slope = dy / dx
                let thickness = lineWidth * (1 + slope * slope).squareRoot()
                // Only the columns where the line is near this band's rows: a line
                // crossing a tall canvas would otherwise walk its whole width once
                // per band. Two pixels of margin beyond the half thickness: a
                // column cut here adds nothing to the band either way.
                var (from, to) = (ax, bx)
                let margin = thickness / 2 + 2
                if slope == 0 {
                    if ay < -margin || ay > Double(rows) + margin { return }
                } else {
                    let enter = ax + (-margin - ay) / slope, leave = ax + (Double(rows) + margin - ay) / slope
                    from = max(from, min(enter, leave))
                    to = min(to, max(enter, leave))
                }
                Plotter.walk(from: from, to: to, crossAt: { ay + slope * ($0 - ax) }, thickness: thickness,
                             along: width, across: rows) { along, across, value in add(value, column: along, row: across) }
            } else {
                // Mostly vertical: walk rows; the cross-section is horizontal.
                let (ay, ax, by) = dy > 0 ? (y0, x0, y1) : (y1, x1, y0)
                let slope = dx / dy
                Plotter.walk(from: ay, to: by, crossAt: { ax + slope * ($0 - ay) }, thickness: lineWidth * (1 + slope * slope).squareRoot(),
                             along: rows, across: width) { along, across, value in add(value, column: across, row: along) }
            }
        }

        /// Walks the major axis from `start` to `end` (start < end) a pixel at a
        /// time, inside `0..<along`; at each step the stroke covers the interval
        /// of `thickness` centred on `crossAt(middle of the step)` across it.
        @inline(__always)
        private static func walk(from start: Double, to end: Double, crossAt: (Double) -> Double, thickness: Double,
                                 along: Int, across: Int, plot: (Int, Int, Float) -> Void) {
            let first = max(0, start), last = min(Double(along), end)
            guard first < last else { return }
            let half = thickness / 2
            var step = Int(first)                       // first ≥ 0: truncation is floor
            let stepEnd = min(along, ceiling(last))
            while step < stepEnd {
                let lo = max(first, Double(step)), hi = min(last, Double(step + 1))
                let length = hi - lo
                let centre = crossAt((lo + hi) / 2)
                let a = centre - half, b = centre + half
                // Only the cells of the band: far above or below, nothing to add.
                if b > 0 && a < Double(across) {
                    var cell = max(0, floor(a))
                    let cellEnd = min(across, ceiling(b))
                    while cell < cellEnd {
                        let overlap = min(b, Double(cell + 1)) - max(a, Double(cell))
                        if overlap > 0 { plot(step, cell, Float(length * overlap)) }
                        cell += 1
                    }
                }
                step += 1
            }
        }

        /// ⌊v⌋ and ⌈v⌉ by truncation and a compare: `rounded(.down)` and `.up` are
        /// libm calls on the baseline x86-64 target, two per pixel step here.
        /// (|v| stays within the ±1e12 coordinate limit, so the conversion is safe.)
        @inline(__always)
        private static func floor(_ v: Double) -> Int {
            let whole = Int(v)
            return Double(whole) > v ? whole - 1 : whole
        }

        @inline(__always)
        private static func ceiling(_ v: Double) -> Int {
            let whole = Int(v)
            return Double(whole) < v ? whole + 1 : whole
        }

        @inline(__always)
        private func add(_ value: Float, column: Int, row: Int) {
            cells[row * width + column] += value
            rowFirst[row] = min(rowFirst[row], column)
            rowLast[row] = max(rowLast[row], column)
        }
    }

    /// Per-pixel coverage for one band of rows, and the span touched in each row.
    private struct CoverageMask {
        let width: Int
        var rows: Int
        var cells: [Float]
        var rowFirst: [Int]
        var rowLast: [Int]

        init(width: Int, rows: Int) {
            self.width = width
            self.rows = rows
            cells = [Float](repeating: 0, count: width * rows)
            rowFirst = [Int](repeating: Int.max, count: rows)
            rowLast = [Int](repeating: -1, count: rows)
        }

        /// Blends every touched cell into the band's rows of `pixels`, clamping
        /// coverage at one, and clears the mask for the next band.
        mutating func sweep(into pixels: inout [UInt8], firstRow: Int, canvasWidth: Int, source: SIMD4<UInt32>) {
            let width = self.width
            cells.withUnsafeMutableBufferPointer { cells in
                pixels.withUnsafeMutableBytes { bytes in
                    let words = bytes.baseAddress!.assumingMemoryBound(to: UInt32.self)
                    for row in 0..<rows where rowFirst[row] <= rowLast[row] {
                        let a = cells.baseAddress! + row * width
                        let out = words + (firstRow + row) * canvasWidth
                        var x = rowFirst[row]
                        let last = rowLast[row]
                        while x <= last {
                            // Eight empty cells at a time across the gaps between lines
                            // (cells are never negative, so any set bit means coverage).
                            if x + 8 <= last + 1 {
                                let raw = UnsafeRawPointer(a + x)
                                if raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                                    | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                                    | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self) == 0 {
                                    x += 8
                                    continue
                                }
                            }
                            let value = a[x]
                            if value > 0 {
                                a[x] = 0
                                let coverage = UInt32(min(1, value) * 255 + 0.5)
                                if coverage > 0 { Canvas.blend(source, coverage: coverage, into: out + x, count: 1) }
                            }
                            x += 1
                        }
                        rowFirst[row] = Int.max
                        rowLast[row] = -1
                    }
                }
            }
        }
    }
}
