/// The inverse transforms of RFC 6386 section 14: the Walsh-Hadamard
/// transform that spreads the Y2 block's values into the sixteen luma DCs,
/// and the 4×4 inverse DCT whose output is added to the prediction. Integer
/// arithmetic exactly as the RFC (and libwebp) compute it, so every decoder
/// reconstructs the same pixels.
enum VP8InverseTransform {
    /// Inverse WHT of the Y2 block `input` (raster order, `count` = position
    /// after its last token), writing each result into the DC (index 0) of
    /// the corresponding luma block of `blocks` (16 values apart).
    static func inverseWalshHadamard(_ input: UnsafeMutablePointer<Int16>, count: Int,
                                     into blocks: UnsafeMutablePointer<Int16>) {
        guard count > 1 else {
            // Only the DC: every output is the same (what the full transform gives).
            let dc = Int16(truncatingIfNeeded: (Int32(input[0]) + 3) >> 3)
            for i in 0..<16 { blocks[i * 16] = dc }
            return
        }
        var temporary = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                         Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
        withUnsafeMutableBytes(of: &temporary) { raw in
            let t = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            for i in 0..<4 {  // columns
                let a0 = Int32(input[i]) + Int32(input[12 + i])
                let a1 = Int32(input[4 + i]) + Int32(input[8 + i])
                let a2 = Int32(input[4 + i]) - Int32(input[8 + i])
                let a3 = Int32(input[i]) - Int32(input[12 + i])
                t[i] = a0 + a1
                t[8 + i] = a0 - a1
                t[4 + i] = a3 + a2
                t[12 + i] = a3 - a2
            }
            for i in 0..<4 {  // rows, with the rounding
                let dc = t[i * 4] + 3
                let a0 = dc + t[i * 4 + 3]
                let a1 = t[i * 4 + 1] + t[i * 4 + 2]
                let a2 = t[i * 4 + 1] - t[i * 4 + 2]
                let a3 = dc - t[i * 4 + 3]
                let out = blocks + i * 64
                out[0] = Int16(truncatingIfNeeded: (a0 + a1) >> 3)
                out[16] = Int16(truncatingIfNeeded: (a3 + a2) >> 3)
                out[32] = Int16(truncatingIfNeeded: (a0 - a1) >> 3)
                out[48] = Int16(truncatingIfNeeded: (a3 - a2) >> 3)
            }
        }
    }

    /// x · √2 · cos(π/8), in the RFC's 16-bit fixed point (20091/65536 + 1).
    @inline(__always)
    private static func multiplyByC1(_ x: Int32) -> Int32 { ((x &* 20091) >> 16) &+ x }
    /// x · √2 · sin(π/8) (35468/65536).
    @inline(__always)
    private static func multiplyByS1(_ x: Int32) -> Int32 { (x &* 35468) >> 16 }

    /// Adds the inverse DCT of `input` (16 coefficients, raster order) to the
    /// 4×4 pixels at `pixels` (rows `stride` apart), clamping to 0...255.
    ///
    /// Four columns at once in 32-bit lanes, then (transposed) four rows at once.
    @inline(__always)
    static func addInverseDCT(_ input: UnsafePointer<Int16>, to pixels: UnsafeMutablePointer<UInt8>, stride: Int) {
        typealias Lanes = SIMD4<Int32>
        @inline(__always) func row(_ i: Int) -> Lanes {
            Lanes(Int32(input[i]), Int32(input[i + 1]), Int32(input[i + 2]), Int32(input[i + 3]))
        }
        @inline(__always) func c1(_ x: Lanes) -> Lanes { ((x &* 20091) &>> 16) &+ x }
        @inline(__always) func s1(_ x: Lanes) -> Lanes { (x &* 35468) &>> 16 }
        @inline(__always) func transpose(_ a: Lanes, _ b: Lanes, _ c: Lanes, _ d: Lanes) -> (Lanes, Lanes, Lanes, Lanes) {
            (Lanes(a[0], b[0], c[0], d[0]), Lanes(a[1], b[1], c[1], d[1]),
             Lanes(a[2], b[2], c[2], d[2]), Lanes(a[3], b[3], c[3], d[3]))
        }
        // Vertical pass: lane j is column j.
        let i0 = row(0), i4 = row(4), i8 = row(8), i12 = row(12)
        let a = i0 &+ i8, b = i0 &- i8
        let c = s1(i4) &- c1(i12), d = c1(i4) &+ s1(i12)
        // Lane j of w_k: column j's k-th output; transposed, lane i is output row i.
        let (w0, w1, w2, w3) = transpose(a &+ d, b &+ c, b &- c, a &- d)
        let dc = w0 &+ 4
        let ha = dc &+ w2, hb = dc &- w2
        let hc = s1(w1) &- c1(w3), hd = c1(w1) &+ s1(w3)
        // Lane i of column k: row i's k-th pixel; transposed back to rows.
        let (r0, r1, r2, r3) = transpose((ha &+ hd) &>> 3, (hb &+ hc) &>> 3, (hb &- hc) &>> 3, (ha &- hd) &>> 3)
        @inline(__always) func add(_ r: Lanes, _ p: UnsafeMutablePointer<UInt8>) {
            p[0] = clampAdd(p[0], r[0]); p[1] = clampAdd(p[1], r[1]); p[2] = clampAdd(p[2], r[2]); p[3] = clampAdd(p[3], r[3])
        }
        add(r0, pixels); add(r1, pixels + stride); add(r2, pixels + 2 * stride); add(r3, pixels + 3 * stride)
    }

    /// Adds the inverse DCT of a block whose only coefficient is the DC.
    @inline(__always)
    static func addInverseDC(_ input: UnsafePointer<Int16>, to pixels: UnsafeMutablePointer<UInt8>, stride: Int) {
        let dc = (Int32(input[0]) + 4) >> 3
        for y in 0..<4 {
            let row = pixels + y * stride
            for x in 0..<4 { row[x] = clampAdd(row[x], dc) }
        }
    }

    @inline(__always)
    static func clampAdd(_ pixel: UInt8, _ delta: Int32) -> UInt8 {
        let value = Int32(pixel) &+ delta
        return UInt8(truncatingIfNeeded: value < 0 ? 0 : value > 255 ? 255 : value)
    }
}
