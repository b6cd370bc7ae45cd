import Foundation

extension Bitmap {
    /// A copy rotated clockwise by `degrees`.
    ///
    /// Multiples of 90° move pixels exactly. Any other angle resamples bilinearly
    /// (premultiplied) onto a canvas expanded to hold the whole rotated image;
    /// uncovered corners get `background` (transparent by default).
    /// `checkCancellation` runs every 64 output rows; whatever it throws ends the rotation.
    public func rotated(by degrees: Double, background: RGBA = .clear, checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        guard degrees.isFinite else { throw RasterError.invalidArgument("rotation angle \(degrees) is not finite") }
        var turn = degrees.truncatingRemainder(dividingBy: 360)
        if turn < 0 { turn += 360 }
        if turn == 0 { return self }
        if turn == 90 || turn == 180 || turn == 270 { return try rotatedExactly(quarterTurns: Int(turn) / 90, checkCancellation: checkCancellation) }
        return try rotatedBilinear(radians: turn * .pi / 180, background: background, checkCancellation: checkCancellation)
    }

    /// The size `rotated(by:)` gives a `width` × `height` image: sides swapped
    /// for odd quarter turns, the canvas holding the whole image for other angles.
    public static func rotatedSize(width: Int, height: Int, degrees: Double) -> (width: Int, height: Int) {
        var turn = degrees.truncatingRemainder(dividingBy: 360)
        if turn < 0 { turn += 360 }
        if turn == 0 || turn == 180 || !turn.isFinite { return (width, height) }
        if turn == 90 || turn == 270 { return (height, width) }
        return expandedSize(width: width, height: height, radians: turn * .pi / 180)
    }

    /// The bounding canvas of a `width` × `height` image turned by `radians`.
    private static func expandedSize(width: Int, height: Int, radians: Double) -> (width: Int, height: Int) {
        let c = cos(radians), s = sin(radians)
        let w = Double(width), h = Double(height)
        return (max(1, Int((abs(w * c) + abs(h * s) - 1e-9).rounded(.up))),
                max(1, Int((abs(w * s) + abs(h * c) - 1e-9).rounded(.up))))
    }

    /// Rotation by 1, 2 or 3 clockwise quarter turns, moving whole pixels.
    private func rotatedExactly(quarterTurns: Int, checkCancellation: () throws -> Void) throws -> Bitmap {
        let w = width, h = height
        let (ow, oh) = quarterTurns == 2 ? (w, h) : (h, w)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        if !isEmpty {
            try pixels.withUnsafeBytes { s in
                try out.withUnsafeMutableBytes { d in
                    let src = s.bindMemory(to: UInt32.self), dst = d.bindMemory(to: UInt32.self)
                    for y in 0..<h {
                        if y % 64 == 63 { try checkCancellation() }
                        for x in 0..<w {
                            let (nx, ny): (Int, Int)
                            switch quarterTurns {
                            case 1: (nx, ny) = (h - 1 - y, x)
                            case 2: (nx, ny) = (w - 1 - x, h - 1 - y)
                            default: (nx, ny) = (y, w - 1 - x)
                            }
                            dst[ny * ow + nx] = src[y * w + x]
                        }
                    }
                }
            }
        }
        return try Bitmap(width: ow, height: oh, rgba: out)
    }

    /// Any-angle rotation with bilinear sampling on an expanded canvas.
    private func rotatedBilinear(radians: Double, background: RGBA, checkCancellation: () throws -> Void) throws -> Bitmap {
        let c = cos(radians), s = sin(radians)
        let w = Double(width), h = Double(height)
        let (ow, oh) = Bitmap.expandedSize(width: width, height: height, radians: radians)
        try Bitmap.validate(width: ow, height: oh)
        let src = Premultiplication.premultiplied(pixels)
        let bg = Premultiplication.premultiplied([background.r, background.g, background.b, background.a])
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        let cx = w / 2, cy = h / 2, ocx = Double(ow) / 2, ocy = Double(oh) / 2
        let iw = width, ih = height
        try src.withUnsafeBufferPointer { p in
            try out.withUnsafeMutableBufferPointer { o in
                for oy in 0..<oh {
                    if oy % 64 == 63 { try checkCancellation() }
                    for ox in 0..<ow {
                        // Inverse-map the output pixel centre into the source.
                        let dx = Double(ox) + 0.5 - ocx, dy = Double(oy) + 0.5 - ocy
                        let sx = c * dx + s * dy + cx - 0.5
                        let sy = -s * dx + c * dy + cy - 0.5
                        let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
                        let fx = sx - Double(x0), fy = sy - Double(y0)
                        let d = (oy * ow + ox) * 4
                        let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
                        // Corner offsets, or -1 for "outside: use the background".
                        let inX0 = x0 >= 0 && x0 < iw, inX1 = x0 + 1 >= 0 && x0 + 1 < iw
                        let inY0 = y0 >= 0 && y0 < ih, inY1 = y0 + 1 >= 0 && y0 + 1 < ih
                        if !(inX0 || inX1) || !(inY0 || inY1) {
                            o[d] = bg[0]; o[d + 1] = bg[1]; o[d + 2] = bg[2]; o[d + 3] = bg[3]
                            continue
                        }
                        let i00 = inX0 && inY0 ? (y0 * iw + x0) * 4 : -1
                        let i10 = inX1 && inY0 ? (y0 * iw + x0 + 1) * 4 : -1
                        let i01 = inX0 && inY1 ? ((y0 + 1) * iw + x0) * 4 : -1
                        let i11 = inX1 && inY1 ? ((y0 + 1) * iw + x0 + 1) * 4 : -1
                        for ch in 0..<4 {
                            let b = Double(bg[ch])
                            var acc = w00 * (i00 >= 0 ? Double(p[i00 + ch]) : b)
                            acc += w10 * (i10 >= 0 ? Double(p[i10 + ch]) : b)
                            acc += w01 * (i01 >= 0 ? Double(p[i01 + ch]) : b)
                            acc += w11 * (i11 >= 0 ? Double(p[i11 + ch]) : b)
                            o[d + ch] = UInt8(min(255, max(0, acc + 0.5)))
                        }
                    }
                }
            }
        }
        Premultiplication.unpremultiply(&out)
        return try Bitmap(width: ow, height: oh, rgba: out)
    }
}
