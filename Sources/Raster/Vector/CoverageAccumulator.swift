/// Exact-area anti-aliasing by signed-area accumulation (the technique of
/// font-rs and stb_truetype's v2 rasteriser, and AGG's cells).
///
/// Each line adds, to the cells of every row it crosses, the signed area it
/// sweeps to its right within that row; a running sum along the row then gives
/// each pixel's winding-weighted coverage. Every edge's contribution is exact,
/// so two polygons that share an edge and are accumulated together sum to full
/// coverage along it (no seam).
///
/// The buffer covers a clip window of `width` × `height` pixels (plus one guard
/// column); lines are clipped to it, keeping the winding of parts left of it.
struct CoverageAccumulator {
    private(set) var width: Int
    private(set) var height: Int
    /// `height` rows of `width + 2` cells.
    var cells: [Float]
    /// Per row, the first and last cell touched (first > last when none): the
    /// running sum is zero outside, so sweeping can skip the rest of the row.
    private(set) var rowFirst: [Int32]
    private(set) var rowLast: [Int32]
    var stride: Int { width + 2 }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = [Float](repeating: 0, count: (width + 2) * max(height, 1))
        rowFirst = [Int32](repeating: Int32.max, count: max(height, 1))
        rowLast = [Int32](repeating: -1, count: max(height, 1))
    }

    /// Reuses the storage for a new window; cells must already be clear (sweeping clears them).
    mutating func reset(width: Int, height: Int) {
        self.width = width
        self.height = height
        let needed = (width + 2) * max(height, 1)
        if cells.count < needed { cells = [Float](repeating: 0, count: needed) }
        if rowFirst.count < height {
            rowFirst = [Int32](repeating: Int32.max, count: height)
            rowLast = [Int32](repeating: -1, count: height)
        }
    }

    /// Adds every edge of `polygons` (each ring implicitly closed), moved by
    /// (−dx, −dy) into window coordinates.
    mutating func add(_ polygons: PolygonList, dx: Double, dy: Double) {
        let (width, height, stride) = (self.width, self.height, self.stride)
        polygons.points.withUnsafeBufferPointer { points in
        rowFirst.withUnsafeMutableBufferPointer { first in
        rowLast.withUnsafeMutableBufferPointer { last in
        cells.withUnsafeMutableBufferPointer { cells in
            // Storage is taken once per fill, not once per edge: strokes are
            // thousands of edges a pixel or two long.
            let lines = LineAdder(cells: cells.baseAddress!, rowFirst: first.baseAddress!, rowLast: last.baseAddress!,
                                  width: width, height: height, stride: stride)
            var start = 0
            for (ring, end) in polygons.ends.enumerated() {
                defer { start = end }
                // Rings wholly above or below the window add nothing.
                if polygons.bottom[ring] <= dy || polygons.top[ring] >= dy + Double(height) { continue }
                var previous = points[end - 1]
                for i in start..<end {
                    let p = points[i]
                    lines.addLine(previous.x - dx, previous.y - dy, p.x - dx, p.y - dy)
                    previous = p
                }
            }
        }
        }
        }
        }
    }

    /// Adds lines to the accumulator's storage through pointers valid for one `add` call.
    private struct LineAdder {
        /// ⌈v⌉ of a non-negative coordinate. Truncation and a compare: `rounded(.up)`
        /// and `.down` are libm calls on the baseline x86-64 target (no SSE4.1 round).
        @inline(__always)
        static func ceiling(_ v: Double) -> Int {
            let whole = Int(v)
            return Double(whole) < v ? whole + 1 : whole
        }

        let cells: UnsafeMutablePointer<Float>
        let rowFirst: UnsafeMutablePointer<Int32>
        let rowLast: UnsafeMutablePointer<Int32>
        let width: Int
        let height: Int
        let stride: Int

        /// Adds a line from (x0, y0) to (x1, y1), in window coordinates.
        @inline(__always)
        func addLine(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            guard y0 != y1 else { return }
            let w = Double(width), h = Double(height)
            // Clip to the window's rows; parts above or below contribute nothing.
            var (ax, ay, bx, by) = (x0, y0, x1, y1)
            let dir: Float = ay < by ? 1 : -1
            if ay > by { swap(&ax, &bx); swap(&ay, &by) }
            if by <= 0 || ay >= h { return }
            let slope = (bx - ax) / (by - ay)
            if ay < 0 { ax += (0 - ay) * slope; ay = 0 }
            if by > h { bx -= (by - h) * slope; by = h }
            // Split where the line crosses the left and right window edges, then squash
            // outside parts onto them: a vertical line at x = 0 still adds its winding
            // to the whole row, which is what the part left of the window would do.
            var t0 = 2.0, t1 = 2.0 // crossing parameters in (0, 1); 2 means none
            if (ax < 0) != (bx < 0) { t0 = (0 - ax) / (bx - ax) }
            if (ax < w) != (bx < w) { t1 = (w - ax) / (bx - ax) }
            if t0 == 2 && t1 == 2 {
                accumulate(max(0, min(w, ax)), ay, max(0, min(w, bx)), by, dir)
                return
            }
            if t0 > t1 { swap(&t0, &t1) }
            var px = ax, py = ay
            for piece in 0..<3 {   // up to t0, up to t1, up to the end (no array per clipped line)
                let t = piece == 0 ? t0 : piece == 1 ? t1 : 1.0
                guard t > 0 && t <= 1 else { continue }
                let qx = t == 1 ? bx : ax + (bx - ax) * t, qy = t == 1 ? by : ay + (by - ay) * t
                accumulate(max(0, min(w, px)), py, max(0, min(w, qx)), qy, dir)
                px = qx; py = qy
            }
        }

        /// Accumulates a downward line already inside [0, w] × [0, h] (y0 < y1) with winding `dir`.
        @inline(__always)
        private func accumulate(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ dir: Float) {
            guard y1 > y0 else { return }
            let dxdy = (x1 - x0) / (y1 - y0)
            let maxIndex = width + 1
            let rowEnd = min(height, LineAdder.ceiling(y1))
            let a = cells, first = rowFirst, last = rowLast
            var x = x0
            var row = Int(y0)
            while row < rowEnd {
                let top = max(Double(row), y0), bottom = min(Double(row + 1), y1)
                let dy = bottom - top
                let xNext = x + dxdy * dy
                let d = Float(dy) * dir
                let lo = min(x, xNext), hi = max(x, xNext)
                let i0 = Int(lo)                  // lo ≥ 0: truncation is floor
                let loFloor = Double(i0)
                let i1 = LineAdder.ceiling(hi)
                let hiCeil = Double(i1)
                let base = row * stride
                first[row] = min(first[row], Int32(i0))
                last[row] = max(last[row], Int32(min(max(i1, i0 + 1), maxIndex)))
                if i1 <= i0 + 1 {
                    // Within one pixel column: split by the mean x.
                    let mid = Float(0.5 * (x + xNext) - loFloor)
                    a[base + min(i0, maxIndex)] += d - d * mid
                    a[base + min(i0 + 1, maxIndex)] += d * mid
                } else {
                    // Across several columns: trapezoids, exact area per cell.
                    let s = Float(1 / (hi - lo))
                    let f0 = Float(lo - loFloor)
                    let a0 = 0.5 * s * (1 - f0) * (1 - f0)
                    let f1 = Float(hi - hiCeil + 1)
                    let am = 0.5 * s * f1 * f1
                    a[base + i0] += d * a0
                    if i1 == i0 + 2 {
                        a[base + i0 + 1] += d * (1 - a0 - am)
                    } else {
                        let a1 = s * (1.5 - f0)
                        a[base + i0 + 1] += d * (a1 - a0)
                        var i = i0 + 2
                        while i < i1 - 1 { a[base + i] += d * s; i += 1 }
                        let a2 = a1 + Float(i1 - i0 - 3) * s
                        a[base + i1 - 1] += d * (1 - a2 - am)
                    }
                    a[base + min(i1, maxIndex)] += d * am
                }
                x = xNext
                row += 1
            }
        }
    }

    /// The touched span of `row` (empty when first > last), clamped to the window.
    @inline(__always)
    func span(ofRow row: Int) -> (first: Int, last: Int) {
        (Int(rowFirst[row]), min(width - 1, Int(rowLast[row])))
    }

    /// Marks `row` untouched again and clears its guard cells (the sweep clears the rest).
    @inline(__always)
    mutating func finishRow(_ row: Int) {
        rowFirst[row] = Int32.max
        rowLast[row] = -1
        cells[row * stride + width] = 0
        cells[row * stride + width + 1] = 0
    }
}
