extension Canvas {
    /// Fills closed polygons with the colour `shader` gives each pixel it
    /// covers (premultiplied, channels 0…1, asked with the pixel's column and
    /// row), scaled by the pixel's coverage: how a map's patterns are filled.
    /// The coverage is the same a colour fill of the polygons gives.
    public mutating func fill(polygons: [[Point]], rule: FillRule = .nonZero, shader: (Int, Int) -> SIMD4<Float>) throws {
        guard !rows.isEmpty, width > 0 else { return }
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for p in polygons.joined() where p.isFinite {
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let x0 = max(0, Int(max(-1, min(Double(width), minX.rounded(.down))))), x1 = min(width, Int(max(0, min(Double(width), maxX.rounded(.up)))))
        let y0 = max(rows.lowerBound, Int(max(-1, min(Double(height), minY.rounded(.down)))))
        let y1 = min(rows.upperBound, Int(max(0, min(Double(height), maxY.rounded(.up)))))
        guard x0 < x1, y0 < y1 else { return }
        // The coverage: the polygons filled opaque white on a scratch band of the rows reached.
        var mask = try Canvas(width: width, height: height, rows: y0..<y1)
        try mask.fill(polygons: polygons, color: .white, rule: rule)
        for y in y0..<y1 {
            for x in x0..<x1 {
                let coverage = mask.pixels[((y - y0) * width + x) * 4 + 3]
                guard coverage > 0 else { continue }
                blend(premultiplied: shader(x, y) * (Float(coverage) / 255), x: x, y: y)
            }
        }
    }
}
