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
    @inline(__always)
    static func addInverseDCT(_ input: UnsafePointer<Int16>, to pixels: UnsafeMutablePointer<UInt8>, stride: Int) {
        var temporary = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                         Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
        withUnsafeMutableBytes(of: &temporary) { raw in
            let t = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            for i in 0..<4 {  // vertical pass, one column at a time
                let i0 = Int32(input[i]), i4 = Int32(input[4 + i])
                let i8 = Int32(input[8 + i]), i12 = Int32(input[12 + i])
                let a = i0 &+ i8
                let b = i0 &- i8
                let c = multiplyByS1(i4) &- multiplyByC1(i12)
                let d = multiplyByC1(i4) &+ multiplyByS1(i12)
                t[i * 4] = a &+ d
                t[i * 4 + 1] = b &+ c
                t[i * 4 + 2] = b &- c
                t[i * 4 + 3] = a &- d
            }
            for i in 0..<4 {  // horizontal pass, one output row at a time
                let dc = t[i] &+ 4
                let a = dc &+ t[8 + i]
                let b = dc &- t[8 + i]
                let c = multiplyByS1(t[4 + i]) &- multiplyByC1(t[12 + i])
                let d = multiplyByC1(t[4 + i]) &+ multiplyByS1(t[12 + i])
                let row = pixels + i * stride
                row[0] = clampAdd(row[0], (a &+ d) >> 3)
                row[1] = clampAdd(row[1], (b &+ c) >> 3)
                row[2] = clampAdd(row[2], (b &- c) >> 3)
                row[3] = clampAdd(row[3], (a &- d) >> 3)
            }
        }
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
