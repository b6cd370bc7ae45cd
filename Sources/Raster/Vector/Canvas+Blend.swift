extension Canvas {
    /// Blends `color` (premultiplied, channels 0…1) over the pixel at (`x`,
    /// `y`), source-over: how image samples (a map's icons and patterns) are
    /// put down one pixel at a time. A pixel outside the canvas or its `rows` is left alone.
    public mutating func blend(premultiplied color: SIMD4<Float>, x: Int, y: Int) {
        guard x >= 0, x < width, rows.contains(y), color.w > 0 else { return }
        let offset = ((y - rows.lowerBound) * width + x) * 4
        let keep = 1 - min(1, color.w)
        pixels.withUnsafeMutableBufferPointer { p in
            for c in 0..<4 {
                let value = Float(p[offset + c]) * keep + min(1, max(0, color[c])) * 255
                p[offset + c] = UInt8(min(255, value + 0.5))
            }
        }
    }

    /// Blends `color` (premultiplied, channels 0…1) over the pixels `columns`
    /// of row `row`, each as ``blend(premultiplied:x:y:)`` would (the same
    /// bytes), the colour's terms worked out once for the run. Pixels outside
    /// the canvas or its `rows` are left alone.
    public mutating func blend(premultiplied color: SIMD4<Float>, row: Int, columns: Range<Int>) {
        let columns = columns.clamped(to: 0..<width)
        guard rows.contains(row), !columns.isEmpty, color.w > 0 else { return }
        let keep = 1 - min(1, color.w)
        let source = SIMD4<Float>(min(1, max(0, color[0])), min(1, max(0, color[1])), min(1, max(0, color[2])), min(1, max(0, color[3]))) * 255
        let start = ((row - rows.lowerBound) * width + columns.lowerBound) * 4
        pixels.withUnsafeMutableBufferPointer { p in
            if keep == 0 {
                // Opaque: every pixel becomes the colour (its bytes worked out once, no allocation per run).
                let (r, g, b, a) = (UInt8(min(255, source[0] + 0.5)), UInt8(min(255, source[1] + 0.5)),
                                    UInt8(min(255, source[2] + 0.5)), UInt8(min(255, source[3] + 0.5)))
                for offset in stride(from: start, to: start + columns.count * 4, by: 4) {
                    p[offset] = r; p[offset + 1] = g; p[offset + 2] = b; p[offset + 3] = a
                }
                return
            }
            for offset in stride(from: start, to: start + columns.count * 4, by: 4) {
                for c in 0..<4 {
                    p[offset + c] = UInt8(min(255, Float(p[offset + c]) * keep + source[c] + 0.5))
                }
            }
        }
    }
}
