extension Bitmap {
    /// Draws `overlay` over this bitmap with its top-left corner at (x, y),
    /// source-over with straight alpha, scaled by `opacity` (0...1). Parts
    /// outside this bitmap are clipped; an overlay wholly outside draws nothing.
    public mutating func composite(_ overlay: Bitmap, at x: Int, _ y: Int, opacity: Double = 1) throws {
        guard opacity.isFinite, opacity >= 0, opacity <= 1 else {
            throw RasterError.invalidArgument("composite opacity \(opacity) must be in 0...1")
        }
        // Clip in Int64-safe arithmetic: x and y may be anything.
        let left = max(0, x), top = max(0, y)
        let (rightRaw, o1) = x.addingReportingOverflow(overlay.width)
        let (bottomRaw, o2) = y.addingReportingOverflow(overlay.height)
        let right = o1 ? (x > 0 ? Int.max : 0) : min(width, rightRaw)
        let bottom = o2 ? (y > 0 ? Int.max : 0) : min(height, bottomRaw)
        guard left < min(width, right), top < min(height, bottom) else { return }
        let scale = UInt32((opacity * 255).rounded())
        let dstWidth = width, srcWidth = overlay.width
        overlay.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for row in top..<min(height, bottom) {
                    for column in left..<min(width, right) {
                        let s = ((row - y) * srcWidth + (column - x)) * 4
                        let d = (row * dstWidth + column) * 4
                        let sa = UInt32(Premultiplication.mul255(UInt32(src[s + 3]), scale))
                        if sa == 0 { continue }
                        if sa == 255 {
                            dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = 255
                            continue
                        }
                        Self.blendStraight(dst: dst, d, src[s], src[s + 1], src[s + 2], sa)
                    }
                }
            }
        }
    }

    /// Source-over of one straight-alpha colour with alpha `sa` onto a straight-alpha pixel.
    @inline(__always)
    static func blendStraight(dst: UnsafeMutableBufferPointer<UInt8>, _ d: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8, _ sa: UInt32) {
        let da = UInt32(dst[d + 3])
        // Out alpha (×255): sa·255 + da·(255 − sa); colours weighted the same way.
        let dw = da * (255 - sa)
        let outA255 = sa * 255 + dw
        guard outA255 > 0 else { return }
        for c in 0..<3 {
            let sc = UInt32(c == 0 ? r : (c == 1 ? g : b))
            dst[d + c] = UInt8((sc * sa * 255 + UInt32(dst[d + c]) * dw + outA255 / 2) / outA255)
        }
        dst[d + 3] = UInt8((outA255 + 127) / 255)
    }

    /// A copy drawn over a solid `background` (e.g. to flatten before JPEG).
    public func flattened(onto background: RGBA) -> Bitmap {
        var base = Bitmap(validatedWidth: width, height: height, pixels: [UInt8](repeating: 0, count: pixels.count))
        base.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count { p[i] = background.r; p[i + 1] = background.g; p[i + 2] = background.b; p[i + 3] = background.a; i += 4 }
        }
        // A same-size overlay at the origin with opacity 1 cannot fail.
        try? base.composite(self, at: 0, 0)
        return base
    }
}
