extension Bitmap {
    /// The pixels inside `rect`, which must be non-empty and lie wholly inside the bitmap.
    public func cropped(to rect: PixelRect) throws -> Bitmap {
        guard rect.width > 0, rect.height > 0, rect.x >= 0, rect.y >= 0,
              rect.x <= width - rect.width, rect.y <= height - rect.height else {
            throw RasterError.invalidArgument(
                "crop rectangle (\(rect.x), \(rect.y)) \(rect.width)×\(rect.height) is empty or outside the \(width)×\(height) image")
        }
        var out = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        let rowBytes = rect.width * 4
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<rect.height {
                    let s = ((rect.y + row) * width + rect.x) * 4
                    let d = row * rowBytes
                    UnsafeMutableRawPointer(dst.baseAddress! + d)
                        .copyMemory(from: src.baseAddress! + s, byteCount: rowBytes)
                }
            }
        }
        return try Bitmap(width: rect.width, height: rect.height, rgba: out)
    }

    /// The pixels inside a rectangle given as fractions of the image (0...1 on each
    /// axis), rounded outwards to whole pixels. Throws for NaN, out-of-range or empty rectangles.
    public func cropped(toNormalized x: Double, _ y: Double, _ w: Double, _ h: Double) throws -> Bitmap {
        try cropped(to: Bitmap.pixelRect(normalized: x, y, w, h, width: width, height: height))
    }

    /// The pixel rectangle `cropped(toNormalized:)` keeps of a `width` × `height`
    /// image: the fractions rounded outwards to whole pixels, at least 1×1.
    /// Throws for NaN, out-of-range or empty rectangles.
    public static func pixelRect(normalized x: Double, _ y: Double, _ w: Double, _ h: Double, width: Int, height: Int) throws -> PixelRect {
        guard [x, y, w, h].allSatisfy({ $0.isFinite }), x >= 0, y >= 0, w > 0, h > 0,
              x + w <= 1.000001, y + h <= 1.000001 else {
            throw RasterError.invalidArgument("normalised crop (\(x), \(y), \(w), \(h)) must be finite, positive and inside 0...1")
        }
        let x0 = Int((x * Double(width)).rounded(.down)), y0 = Int((y * Double(height)).rounded(.down))
        let x1 = min(width, Int(((x + w) * Double(width)).rounded(.up)))
        let y1 = min(height, Int(((y + h) * Double(height)).rounded(.up)))
        return PixelRect(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
    }
}
