import Foundation

/// Gaussian blur approximated by three passes of an "extended" box filter on
/// each axis (a box whose two end taps have fractional weight, so any standard
/// deviation is reachable, as in Pillow and Gwosdek et al. 2011). Three passes
/// of a box give a piecewise-quadratic kernel within a few percent of the true
/// Gaussian; edges repeat the border pixel.
enum GaussianBlur {
    static func blurred(_ bitmap: Bitmap, radius: Double) throws -> Bitmap {
        guard radius > 0, !bitmap.isEmpty else { return bitmap }
        let w = bitmap.width, h = bitmap.height
        let box = boxRadius(sigma: radius, passes: 3)
        let opaque = bitmap.isOpaque
        let source = opaque ? bitmap.pixels : Premultiplication.premultiplied(bitmap.pixels)
        var a = [Float](repeating: 0, count: source.count)
        source.withUnsafeBufferPointer { s in
            a.withUnsafeMutableBufferPointer { d in for i in 0..<s.count { d[i] = Float(s[i]) } }
        }
        var b = [Float](repeating: 0, count: source.count)
        for _ in 0..<3 { horizontalPass(&a, into: &b, width: w, height: h, radius: box); swap(&a, &b) }
        transpose(a, into: &b, width: w, height: h); swap(&a, &b)
        for _ in 0..<3 { horizontalPass(&a, into: &b, width: h, height: w, radius: box); swap(&a, &b) }
        transpose(a, into: &b, width: h, height: w)
        var out = [UInt8](repeating: 0, count: source.count)
        b.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { d in
                for i in 0..<s.count { let v = s[i] + 0.5; d[i] = v <= 0 ? 0 : (v >= 255 ? 255 : UInt8(v)) }
            }
        }
        if !opaque { Premultiplication.unpremultiply(&out) }
        return try Bitmap(width: w, height: h, rgba: out)
    }

    /// The extended box radius whose `passes`-fold convolution has variance sigma².
    static func boxRadius(sigma: Double, passes: Int) -> Double {
        let sigma2 = sigma * sigma / Double(passes)
        let l = floor((sqrt(12 * sigma2 + 1) - 1) / 2)
        let a = (2 * l + 1) * (l * (l + 1) - 3 * sigma2) / (6 * (sigma2 - (l + 1) * (l + 1)))
        return l + a
    }

    /// One extended-box pass along rows of RGBA floats, with a running sum.
    private static func horizontalPass(_ input: inout [Float], into output: inout [Float], width: Int, height: Int, radius: Double) {
        let l = Int(radius), frac = Float(radius - Double(l))
        let scale = 1 / Float(2 * radius + 1)
        input.withUnsafeBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let row = y * width * 4
                    @inline(__always) func at(_ x: Int, _ c: Int) -> Float {
                        src[row + min(width - 1, max(0, x)) * 4 + c]
                    }
                    for c in 0..<4 {
                        var sum: Float = 0
                        for x in -l...l { sum += at(x, c) }
                        for x in 0..<width {
                            dst[row + x * 4 + c] = (sum + frac * (at(x - l - 1, c) + at(x + l + 1, c))) * scale
                            sum += at(x + l + 1, c) - at(x - l, c)
                        }
                    }
                }
            }
        }
    }

    /// Swaps rows and columns of a `width` × `height` RGBA float image.
    private static func transpose(_ input: [Float], into output: inout [Float], width: Int, height: Int) {
        input.withUnsafeBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    for x in 0..<width {
                        let s = (y * width + x) * 4, d = (x * height + y) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = src[s + 3]
                    }
                }
            }
        }
    }
}
