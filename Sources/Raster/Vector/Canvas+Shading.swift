extension Canvas {
    /// Blends, source-over, the colour `shader` gives each pixel of `columns`
    /// × `rows` (clipped to the canvas and to the rows it holds): what a GPU's
    /// fragment shader does over a quad, for shapes whose coverage is a
    /// formula rather than a path (MapLibre's circles). `shader` is asked
    /// with the pixel's column and row and gives premultiplied RGBA, each
    /// 0…1; the result is rounded to 8 bits as a framebuffer stores it.
    public mutating func shade(columns: Range<Int>, rows: Range<Int>, _ shader: (_ x: Int, _ y: Int) -> SIMD4<Float>) {
        let (width, held) = (self.width, self.rows)
        let x0 = max(0, columns.lowerBound), x1 = min(width, columns.upperBound)
        let y0 = max(held.lowerBound, rows.lowerBound), y1 = min(held.upperBound, rows.upperBound)
        guard x0 < x1, y0 < y1 else { return }
        pixels.withUnsafeMutableBufferPointer { pixels in
            for y in y0..<y1 {
                var i = ((y - held.lowerBound) * width + x0) * 4
                for x in x0..<x1 {
                    defer { i += 4 }
                    let source = Canvas.unitClamped(shader(x, y))
                    guard source != .zero else { continue }
                    let keep = 1 - source.w
                    let destination = SIMD4<Float>(Float(pixels[i]), Float(pixels[i + 1]), Float(pixels[i + 2]), Float(pixels[i + 3]))
                    let blended = (source * 255 + destination * keep).rounded(.toNearestOrAwayFromZero)
                    let clamped = blended.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
                    pixels[i] = UInt8(clamped.x)
                    pixels[i + 1] = UInt8(clamped.y)
                    pixels[i + 2] = UInt8(clamped.z)
                    pixels[i + 3] = UInt8(clamped.w)
                }
            }
        }
    }

    /// `color` held to 0…1 per channel, NaN as 0.
    private static func unitClamped(_ color: SIMD4<Float>) -> SIMD4<Float> {
        let zero = SIMD4<Float>(repeating: 0)
        return color.replacing(with: zero, where: .!(color .== color)).clamped(lowerBound: zero, upperBound: SIMD4(repeating: 1))
    }
}
