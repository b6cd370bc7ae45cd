extension Canvas {
    /// Draws `image` with its top-left corner at (x, y), scaled by `scale`
    /// (bilinear between source pixels, edges clamped), composited source-over.
    /// Clipped to the bitmap; a non-finite or non-positive scale draws nothing.
    public mutating func draw(_ image: Bitmap, x: Double, y: Double, scale: Double = 1) {
        guard scale.isFinite, scale > 0, x.isFinite, y.isFinite, !image.isEmpty, !bitmap.isEmpty else { return }
        let width = Double(image.width) * scale, height = Double(image.height) * scale
        let x0 = max(0, Int(x.rounded(.down))), x1 = min(bitmap.width, Int((x + width).rounded(.up)))
        let y0 = max(0, Int(y.rounded(.down))), y1 = min(bitmap.height, Int((y + height).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        let source = image.pixels
        let maxX = image.width - 1, maxY = image.height - 1
        for py in y0..<y1 {
            let sy = min(max((Double(py) + 0.5 - y) / scale - 0.5, 0), Double(maxY))
            let row0 = Int(sy), row1 = min(row0 + 1, maxY), fy = Float(sy - Double(row0))
            for px in x0..<x1 {
                let sx = (Double(px) + 0.5 - x) / scale - 0.5
                // Pixels whose centre lies outside the scaled image are not its to paint.
                guard sx >= -0.5, sx <= Double(maxX) + 0.5 else { continue }
                let cx = min(max(sx, 0), Double(maxX))
                let col0 = Int(cx), col1 = min(col0 + 1, maxX), fx = Float(cx - Double(col0))
                // Interpolate premultiplied colour so transparent neighbours do not darken edges.
                var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                @inline(__always) func add(_ sxi: Int, _ syi: Int, _ weight: Float) {
                    let i = (syi * image.width + sxi) * 4
                    let alpha = Float(source[i + 3]) * (1 / 255) * weight
                    r += Float(source[i]) * alpha
                    g += Float(source[i + 1]) * alpha
                    b += Float(source[i + 2]) * alpha
                    a += alpha
                }
                add(col0, row0, (1 - fx) * (1 - fy))
                add(col1, row0, fx * (1 - fy))
                add(col0, row1, (1 - fx) * fy)
                add(col1, row1, fx * fy)
                guard a > 0 else { continue }
                let color = RGBA(UInt8(min(255, r / a + 0.5)), UInt8(min(255, g / a + 0.5)), UInt8(min(255, b / a + 0.5)), UInt8(min(255, a * 255 + 0.5)))
                blendPixel(px, py, color)
            }
        }
    }
}
