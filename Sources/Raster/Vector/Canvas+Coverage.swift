extension Canvas {
    /// Source-over of `color` scaled by a coverage mask (`width × height`
    /// bytes, row by row, 255 = fully covered) whose top-left pixel lands on
    /// (x, y); what falls outside the canvas's rows is skipped. How drawers
    /// with their own coverage (signed-distance glyphs) paint. Throws when
    /// the mask's size does not match its byte count.
    public mutating func composite(coverage: [UInt8], width w: Int, height h: Int, x: Int, y: Int, color: RGBA) throws {
        guard w >= 0, h >= 0, coverage.count == w * h else {
            throw RasterError.invalidArgument("a \(w)×\(h) coverage mask needs \(max(0, w) * max(0, h)) bytes, not \(coverage.count)")
        }
        let x0 = max(x, 0), y0 = max(y, rows.lowerBound)
        let x1 = min(x + w, width), y1 = min(y + h, rows.upperBound)
        guard x0 < x1, y0 < y1, color.a > 0 else { return }
        if x0 == x, y0 == y, x1 == x + w, y1 == y + h {
            blend(coverage: coverage, x: x, y: y, width: w, height: h, color: color)
            return
        }
        var clipped = [UInt8](repeating: 0, count: (x1 - x0) * (y1 - y0))
        for row in y0..<y1 {
            let source = (row - y) * w + (x0 - x)
            let destination = (row - y0) * (x1 - x0)
            for column in 0..<(x1 - x0) { clipped[destination + column] = coverage[source + column] }
        }
        blend(coverage: clipped, x: x0, y: y0, width: x1 - x0, height: y1 - y0, color: color)
    }
}
