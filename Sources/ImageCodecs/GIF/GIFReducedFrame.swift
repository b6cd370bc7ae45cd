import Raster

/// A GIF's first frame composited straight at 1/`factor` of each side of the
/// canvas: each output pixel the box average of the `factor` × `factor`
/// canvas pixels it covers (fewer at the right and bottom edges), alpha
/// straight as `Bitmap` keeps it. The first frame lies on a transparent
/// canvas, so nothing else is needed: the full-size canvas is never
/// allocated and the work is one step per decoded index, so a 64-megapixel
/// screen holding a few pixels costs what the pixels and the output cost.
struct GIFReducedFrame {
    let width: Int, height: Int, factor: Int
    /// Per output pixel: red, green and blue summed over its opaque canvas
    /// pixels, then how many of those there are.
    private var sums: [UInt32]

    /// An empty (transparent) canvas of `canvasWidth` × `canvasHeight` at 1/`factor`.
    init(canvasWidth: Int, canvasHeight: Int, factor: Int) {
        self.factor = factor
        width = (canvasWidth + factor - 1) / factor
        height = (canvasHeight + factor - 1) / factor
        sums = [UInt32](repeating: 0, count: width * height * 4)
    }

    /// Adds the pixels of canvas row `y` from column `x0`: `indices` through
    /// `colors` (`GIFFrameCompositor.colors`: 0 is "leave it transparent").
    mutating func add(row y: Int, from x0: Int, indices: UnsafeBufferPointer<UInt8>, colors: UnsafeBufferPointer<UInt32>) {
        let base = y / factor * width
        sums.withUnsafeMutableBufferPointer { sums in
            for (i, index) in indices.enumerated() {
                let color = colors[Int(index)]
                guard color != 0 else { continue }
                let at = (base + (x0 + i) / factor) * 4
                sums[at] += color & 0xFF
                sums[at + 1] += color >> 8 & 0xFF
                sums[at + 2] += color >> 16 & 0xFF
                sums[at + 3] += 1
            }
        }
    }

    /// The reduced canvas; `canvasWidth` × `canvasHeight` are the full size.
    func bitmap(canvasWidth: Int, canvasHeight: Int) throws -> Bitmap {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for oy in 0..<height {
            let rows = min(factor, canvasHeight - oy * factor)
            for ox in 0..<width {
                let at = (oy * width + ox) * 4
                let opaque = sums[at + 3]
                guard opaque > 0 else { continue }
                let area = UInt32(rows * min(factor, canvasWidth - ox * factor))
                for channel in 0..<3 { rgba[at + channel] = UInt8((sums[at + channel] + opaque / 2) / opaque) }
                rgba[at + 3] = UInt8((255 * opaque + area / 2) / area)
            }
        }
        return try Bitmap(width: width, height: height, rgba: rgba)
    }
}
