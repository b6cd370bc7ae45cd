extension Canvas {
    /// Draws `layer` (premultiplied RGBA8 of the whole canvas, `width` ×
    /// `height` × 4 bytes, row order) source-over onto the rows this canvas
    /// holds: how a layer drawn pixel by pixel elsewhere (a map's raster or
    /// hillshade layer) joins the fills and strokes beneath it.
    /// Throws when `layer` is not of the canvas's size.
    public mutating func composite(premultipliedLayer layer: [UInt8]) throws {
        guard layer.count == width * height * 4 else {
            throw RasterError.invalidArgument("a layer of \(layer.count) bytes is not \(width)×\(height) RGBA pixels")
        }
        let start = rows.lowerBound * width * 4, count = rows.count * width * 4
        pixels.withUnsafeMutableBufferPointer { destination in
            layer.withUnsafeBufferPointer { source in
                var i = 0
                while i < count {
                    let alpha = source[start + i + 3]
                    if alpha == 255 {
                        for c in 0..<4 { destination[i + c] = source[start + i + c] }
                    } else if alpha != 0 || source[start + i] != 0 || source[start + i + 1] != 0 || source[start + i + 2] != 0 {
                        let rest = UInt32(255 - alpha)
                        for c in 0..<4 {
                            let sum = UInt32(source[start + i + c]) + UInt32(Premultiplication.mul255(UInt32(destination[i + c]), rest))
                            destination[i + c] = UInt8(min(255, sum))
                        }
                    }
                    i += 4
                }
            }
        }
    }
}
