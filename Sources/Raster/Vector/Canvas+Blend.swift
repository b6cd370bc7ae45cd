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
}
