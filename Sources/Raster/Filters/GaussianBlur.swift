import Foundation

/// Gaussian blur approximated by three passes of an "extended" box filter on
/// each axis (a box whose two end taps have fractional weight, so any standard
/// deviation is reachable, as in Pillow and Gwosdek et al. 2011). Three passes
/// of a box give a piecewise-quadratic kernel within a few levels of the true
/// Gaussian (the tests check ≤ 4 of 255 at radius 2); edges repeat the border pixel.
///
/// Works on SIMD4<Float> pixels: horizontal passes per row in small buffers
/// that stay in cache, vertical passes as running sums of whole rows.
///
/// Memory: the float image is 16 bytes a pixel, four times the bitmap (a
/// 64 MP photo would need 1 GiB). So the image is blurred in horizontal
/// bands, each read with a margin of `3 × (l + 1)` rows on either side: a
/// band's edge rows clamp (as the image's edges do), and after three passes
/// that error reaches exactly that far, so the rows a band keeps are those of
/// a whole-image blur. A band's floats take `bandBytes`, but a band keeps at
/// least four margins of rows, so re-reading margins costs at most half again
/// the passes' work (a large radius on a wide image takes more memory rather
/// than twice the time). Short images take one band.
enum GaussianBlur {
    typealias Pixel = SIMD4<Float>

    /// Float storage a band takes unless its margins need more (64 MiB: 4 MP of pixels).
    static let bandBytes = 64 << 20

    /// `bitmap` blurred with standard deviation `radius`. `checkCancellation`
    /// runs before each band; whatever it throws ends the blur.
    /// `maximumBandRows` is for tests (a small value forces many bands).
    static func blurred(_ bitmap: Bitmap, radius: Double, maximumBandRows: Int? = nil,
                        checkCancellation: () throws -> Void = {}) throws -> Bitmap {
        guard radius > 0, !bitmap.isEmpty else { return bitmap }
        let w = bitmap.width, h = bitmap.height
        let box = boxRadius(sigma: radius, passes: 3)
        let margin = 3 * (Int(box) + 1)
        // Rows a band keeps: at least four margins, so the margins add at most half again.
        let keep = maximumBandRows ?? max(4 * margin, bandBytes / (MemoryLayout<Pixel>.stride * w) - 2 * margin)
        let source = bitmap.pixels
        var out = [UInt8](repeating: 0, count: source.count)
        let bandCapacity = min(h, keep + 2 * margin)
        var band = [Pixel](unsafeUninitializedCapacity: w * bandCapacity) { _, count in count = w * bandCapacity }
        var rowA = [Pixel](repeating: .zero, count: w), rowB = rowA
        for y0 in Swift.stride(from: 0, to: h, by: keep) {
            try checkCancellation()
            let y1 = min(h, y0 + keep)
            let first = max(0, y0 - margin), last = min(h, y1 + margin)
            source.withUnsafeBufferPointer { src in
                band.withUnsafeMutableBufferPointer { img in
                    rowA.withUnsafeMutableBufferPointer { a in
                        rowB.withUnsafeMutableBufferPointer { b in
                            horizontalPasses(UnsafeRawPointer(src.baseAddress!), width: w, rows: first..<last,
                                             opaque: bitmap.isOpaque, into: img.baseAddress!, a.baseAddress!, b.baseAddress!, radius: box)
                        }
                    }
                    // Strips of columns, all three passes per strip: a strip (rows × 32 px)
                    // stays in cache between passes instead of streaming the band three times.
                    let strip = 32
                    for x0 in Swift.stride(from: 0, to: w, by: strip) {
                        for _ in 0..<3 {
                            verticalPass(img.baseAddress! + x0, columns: min(strip, w - x0), rowStride: w, height: last - first, radius: box)
                        }
                    }
                    out.withUnsafeMutableBufferPointer { o in
                        let kept = UnsafeBufferPointer(rebasing: img[(y0 - first) * w ..< (y1 - first) * w])
                        storeBytes(kept, opaque: bitmap.isOpaque, into: UnsafeMutableRawPointer(o.baseAddress! + y0 * w * 4))
                    }
                }
            }
        }
        return try Bitmap(width: w, height: h, rgba: out)
    }

    /// The three horizontal passes of `rows`, as floats (premultiplied unless
    /// `opaque`), written to consecutive rows of `image`.
    private static func horizontalPasses(_ words: UnsafeRawPointer, width w: Int, rows: Range<Int>, opaque: Bool,
                                         into image: UnsafeMutablePointer<Pixel>,
                                         _ a: UnsafeMutablePointer<Pixel>, _ b: UnsafeMutablePointer<Pixel>, radius: Double) {
        for y in rows {
            for x in 0..<w {
                a[x] = GaussianBlur.pixel(words.loadUnaligned(fromByteOffset: (y * w + x) * 4, as: UInt32.self))
            }
            if !opaque {
                // Premultiply in float (no 8-bit rounding loss).
                for x in 0..<w { a[x] *= Pixel(a[x].w, a[x].w, a[x].w, 255) / 255 }
            }
            boxPass(a, b, count: w, stride: 1, radius: radius)
            boxPass(b, a, count: w, stride: 1, radius: radius)
            boxPass(a, image + (y - rows.lowerBound) * w, count: w, stride: 1, radius: radius)
        }
    }

    /// Float pixels back to straight-alpha RGBA bytes.
    private static func storeBytes(_ s: UnsafeBufferPointer<Pixel>, opaque: Bool, into bytes: UnsafeMutableRawPointer) {
        @inline(__always) func straight(_ i: Int) -> Pixel {
            let p = s[i]
            return opaque ? p : p * (p.w > 0.001 ? Pixel(255 / p.w, 255 / p.w, 255 / p.w, 1) : .zero)
        }
        // Four pixels at a time, so rounding, clamping and narrowing run as vector operations.
        var i = 0
        while i + 4 <= s.count {
            let quad = SIMD16(lowHalf: SIMD8(lowHalf: straight(i), highHalf: straight(i + 1)),
                              highHalf: SIMD8(lowHalf: straight(i + 2), highHalf: straight(i + 3)))
            bytes.storeBytes(of: GaussianBlur.bytes(quad), toByteOffset: i * 4, as: SIMD16<UInt8>.self)
            i += 4
        }
        while i < s.count {
            let lanes = GaussianBlur.bytes(SIMD16(lowHalf: SIMD8(lowHalf: straight(i), highHalf: .zero), highHalf: .zero))
            for c in 0..<4 { bytes.storeBytes(of: lanes[c], toByteOffset: i * 4 + c, as: UInt8.self) }
            i += 1
        }
    }

    /// An RGBA word (little-endian: red in the low byte) as float lanes.
    @inline(__always)
    private static func pixel(_ word: UInt32) -> Pixel {
        let v = SIMD4<Int32>(repeating: Int32(bitPattern: word)) &>> SIMD4<Int32>(0, 8, 16, 24) & 0xFF
        return Pixel(v)
    }

    /// Float lanes rounded to the nearest integer and clamped to 0...255, as
    /// bytes. Arithmetic only: SIMD `clamped` and float-to-integer conversions
    /// are generic calls per pixel on this toolchain.
    @inline(__always)
    private static func bytes(_ p: SIMD16<Float>) -> SIMD16<UInt8> {
        // Adding 1.5·2²³ leaves the rounded integer in the low mantissa bits (exact for |p| < 2²²;
        // blurred samples stay near 0...255).
        var v = unsafeBitCast(p + 12_582_912, to: SIMD16<Int32>.self) &- 0x4B40_0000
        v &= ~(v &>> 31)                                  // negative → 0
        let over = (255 &- v) &>> 31                      // all ones above 255
        v = (v & ~over) | (255 & over)
        return SIMD16<UInt8>(truncatingIfNeeded: v)
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

    /// One extended-box pass down `width` columns (rows `rowStride` apart), in place, keeping a running sum
    /// of whole rows. Rows already overwritten are read from a ring of the last
    /// `l + 2` original rows, so no second full-size image is needed (a 1920×1280
    /// float image is 39 MB: allocating and faulting it in costs more than the pass).
    private static func verticalPass(_ image: UnsafeMutablePointer<Pixel>, columns width: Int, rowStride: Int, height: Int, radius: Double) {
        let l = Int(radius)
        let frac = Pixel(repeating: Float(radius - Double(l)))
        let scale = Pixel(repeating: 1 / Float(2 * radius + 1))
        let ringRows = min(l + 2, height) // clamped rows never reach further back than row 0
        let sum = UnsafeMutablePointer<Pixel>.allocate(capacity: width)
        let ring = UnsafeMutablePointer<Pixel>.allocate(capacity: width * ringRows)
        defer { sum.deallocate(); ring.deallocate() }
        sum.initialize(repeating: .zero, count: width)
        ring.initialize(repeating: .zero, count: width * ringRows)
        for k in -l...l {
            let r = image + min(height - 1, max(0, k)) * rowStride
            for x in 0..<width { sum[x] += r[x] }
        }
        for y in 0..<height {
            let current = image + y * rowStride
            (ring + (y % ringRows) * width).update(from: current, count: width)
            // Original row k: from the ring once it has been overwritten (k ≤ y).
            @inline(__always) func original(_ k: Int) -> UnsafeMutablePointer<Pixel> {
                let c = min(height - 1, max(0, k))
                return c <= y ? ring + (c % ringRows) * width : image + c * rowStride
            }
            let above = original(y - l - 1), below = original(y + l + 1), leaving = original(y - l)
            for x in 0..<width {
                let b = below[x]
                current[x] = (sum[x] + frac * (above[x] + b)) * scale
                sum[x] += b - leaving[x]
            }
        }
    }
}
