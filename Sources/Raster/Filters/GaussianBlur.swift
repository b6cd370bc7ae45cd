import Foundation

/// Gaussian blur approximated by three passes of an "extended" box filter on
/// each axis (a box whose two end taps have fractional weight, so any standard
/// deviation is reachable, as in Pillow and Gwosdek et al. 2011). Three passes
/// of a box give a piecewise-quadratic kernel within a few levels of the true
/// Gaussian (the tests check ≤ 4 of 255 at radius 2); edges repeat the border pixel.
///
/// Works on SIMD4<Float> pixels: horizontal passes per row in small buffers
/// that stay in cache, vertical passes as running sums of whole rows.
enum GaussianBlur {
    typealias Pixel = SIMD4<Float>

    static func blurred(_ bitmap: Bitmap, radius: Double) throws -> Bitmap {
        guard radius > 0, !bitmap.isEmpty else { return bitmap }
        let w = bitmap.width, h = bitmap.height
        let box = boxRadius(sigma: radius, passes: 3)
        let opaque = bitmap.isOpaque
        let source = opaque ? bitmap.pixels : Premultiplication.premultiplied(bitmap.pixels)
        var image = [Pixel](repeating: .zero, count: w * h)
        var rowA = [Pixel](repeating: .zero, count: w), rowB = rowA
        source.withUnsafeBufferPointer { src in
            image.withUnsafeMutableBufferPointer { img in
                rowA.withUnsafeMutableBufferPointer { a in
                    rowB.withUnsafeMutableBufferPointer { b in
                        for y in 0..<h {
                            for x in 0..<w {
                                let s = (y * w + x) * 4
                                a[x] = Pixel(Float(src[s]), Float(src[s + 1]), Float(src[s + 2]), Float(src[s + 3]))
                            }
                            boxPass(a.baseAddress!, b.baseAddress!, count: w, stride: 1, radius: box)
                            boxPass(b.baseAddress!, a.baseAddress!, count: w, stride: 1, radius: box)
                            boxPass(a.baseAddress!, img.baseAddress! + y * w, count: w, stride: 1, radius: box)
                        }
                    }
                }
            }
        }
        var other = [Pixel](repeating: .zero, count: w * h)
        image.withUnsafeMutableBufferPointer { img in
            other.withUnsafeMutableBufferPointer { tmp in
                verticalPass(img.baseAddress!, tmp.baseAddress!, width: w, height: h, radius: box)
                verticalPass(tmp.baseAddress!, img.baseAddress!, width: w, height: h, radius: box)
                verticalPass(img.baseAddress!, tmp.baseAddress!, width: w, height: h, radius: box)
            }
        }
        var out = [UInt8](repeating: 0, count: source.count)
        other.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { d in
                let low = Pixel(repeating: 0), high = Pixel(repeating: 255), half = Pixel(repeating: 0.5)
                for i in 0..<s.count {
                    let v = (s[i] + half).clamped(lowerBound: low, upperBound: high)
                    d[i * 4] = UInt8(v.x); d[i * 4 + 1] = UInt8(v.y); d[i * 4 + 2] = UInt8(v.z); d[i * 4 + 3] = UInt8(v.w)
                }
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

    /// One extended-box pass over `count` pixels `stride` apart, edges clamped.
    private static func boxPass(_ src: UnsafePointer<Pixel>, _ dst: UnsafeMutablePointer<Pixel>, count: Int, stride: Int, radius: Double) {
        let l = Int(radius)
        let frac = Pixel(repeating: Float(radius - Double(l)))
        let scale = Pixel(repeating: 1 / Float(2 * radius + 1))
        let last = count - 1
        @inline(__always) func at(_ i: Int) -> Pixel { src[min(last, max(0, i)) * stride] }
        var sum = Pixel.zero
        for i in -l...l { sum += at(i) }
        // Clamped reads only near the ends; the middle reads directly.
        let safeStart = min(count, l + 1), safeEnd = max(safeStart, count - l - 1)
        var x = 0
        while x < safeStart {
            dst[x * stride] = (sum + frac * (at(x - l - 1) + at(x + l + 1))) * scale
            sum += at(x + l + 1) - at(x - l)
            x += 1
        }
        while x < safeEnd {
            let outer = src[(x + l + 1) * stride]
            dst[x * stride] = (sum + frac * (src[(x - l - 1) * stride] + outer)) * scale
            sum += outer - src[(x - l) * stride]
            x += 1
        }
        while x < count {
            dst[x * stride] = (sum + frac * (at(x - l - 1) + at(x + l + 1))) * scale
            sum += at(x + l + 1) - at(x - l)
            x += 1
        }
    }

    /// One extended-box pass down the columns, keeping a running sum of whole rows.
    private static func verticalPass(_ src: UnsafeMutablePointer<Pixel>, _ dst: UnsafeMutablePointer<Pixel>, width: Int, height: Int, radius: Double) {
        let l = Int(radius)
        let frac = Pixel(repeating: Float(radius - Double(l)))
        let scale = Pixel(repeating: 1 / Float(2 * radius + 1))
        let sum = UnsafeMutablePointer<Pixel>.allocate(capacity: width)
        defer { sum.deallocate() }
        sum.initialize(repeating: .zero, count: width)
        @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<Pixel> { src + min(height - 1, max(0, y)) * width }
        for y in -l...l {
            let r = row(y)
            for x in 0..<width { sum[x] += r[x] }
        }
        for y in 0..<height {
            let above = row(y - l - 1), below = row(y + l + 1), leaving = row(y - l)
            let out = dst + y * width
            for x in 0..<width {
                let b = below[x]
                out[x] = (sum[x] + frac * (above[x] + b)) * scale
                sum[x] += b - leaving[x]
            }
        }
    }
}
