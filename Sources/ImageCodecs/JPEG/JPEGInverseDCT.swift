/// The accurate integer inverse DCT (the "islow" algorithm of the IJG library:
/// Loeffler–Ligtenberg–Moschytz with 13-bit fixed-point constants), fused with
/// dequantisation, level shift and clamping.
///
/// Arithmetic is done in `Int` (64-bit), so hostile coefficients × quantisers
/// cannot overflow; wrapping operators skip the overflow checks.
enum JPEGInverseDCT {
    private static let constBits = 13
    private static let pass1Bits = 2

    /// Transforms one block of coefficients (natural order) to 8×8 samples at
    /// `output`, rows `stride` bytes apart. `workspace` holds 64 `Int`s.
    @inline(__always)
    static func transform(_ input: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>,
                          _ output: UnsafeMutablePointer<UInt8>, _ stride: Int,
                          _ workspace: UnsafeMutablePointer<Int>) {
        // Pass 1: columns, scaled up by 2^pass1Bits.
        for column in 0..<8 {
            let i = input + column, q = quant + column, w = workspace + column
            if i[8] == 0 && i[16] == 0 && i[24] == 0 && i[32] == 0 && i[40] == 0 && i[48] == 0 && i[56] == 0 {
                let dc = (Int(i[0]) &* Int(q[0])) &<< pass1Bits
                w[0] = dc; w[8] = dc; w[16] = dc; w[24] = dc; w[32] = dc; w[40] = dc; w[48] = dc; w[56] = dc
                continue
            }
            let r = butterfly(
                Int(i[0]) &* Int(q[0]), Int(i[8]) &* Int(q[8]), Int(i[16]) &* Int(q[16]), Int(i[24]) &* Int(q[24]),
                Int(i[32]) &* Int(q[32]), Int(i[40]) &* Int(q[40]), Int(i[48]) &* Int(q[48]), Int(i[56]) &* Int(q[56]))
            let shift = constBits - pass1Bits, round = 1 &<< (shift - 1)
            w[0] = (r.0 &+ round) &>> shift; w[8] = (r.1 &+ round) &>> shift
            w[16] = (r.2 &+ round) &>> shift; w[24] = (r.3 &+ round) &>> shift
            w[32] = (r.4 &+ round) &>> shift; w[40] = (r.5 &+ round) &>> shift
            w[48] = (r.6 &+ round) &>> shift; w[56] = (r.7 &+ round) &>> shift
        }
        // Pass 2: rows; remove the pass-1 scale and the DCT's factor 8, add 128.
        let shift = constBits + pass1Bits + 3
        let round = (1 &<< (shift - 1)) &+ (128 &<< shift)
        for row in 0..<8 {
            let w = workspace + row * 8, o = output + row * stride
            let r = butterfly(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
            o[0] = clamp((r.0 &+ round) &>> shift); o[1] = clamp((r.1 &+ round) &>> shift)
            o[2] = clamp((r.2 &+ round) &>> shift); o[3] = clamp((r.3 &+ round) &>> shift)
            o[4] = clamp((r.4 &+ round) &>> shift); o[5] = clamp((r.5 &+ round) &>> shift)
            o[6] = clamp((r.6 &+ round) &>> shift); o[7] = clamp((r.7 &+ round) &>> shift)
        }
    }

    /// Writes the block's average (its DC term) as one sample: the 1/8-scale decode.
    @inline(__always)
    static func transformDCOnly(_ input: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>) -> UInt8 {
        clamp(((Int(input[0]) &* Int(quant[0])) &+ 4) &>> 3 &+ 128)
    }

    @inline(__always)
    static func clamp(_ value: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: value < 0 ? 0 : (value > 255 ? 255 : value))
    }

    /// The 8-point 1-D IDCT of the islow algorithm, results scaled by 2^constBits.
    @inline(__always)
    private static func butterfly(_ d0: Int, _ d1: Int, _ d2: Int, _ d3: Int, _ d4: Int, _ d5: Int, _ d6: Int, _ d7: Int)
        -> (Int, Int, Int, Int, Int, Int, Int, Int) {
        // Even part.
        var z1 = (d2 &+ d6) &* 4433                  // FIX(0.541196100)
        let t2 = z1 &+ d6 &* -15137                  // -FIX(1.847759065)
        let t3 = z1 &+ d2 &* 6270                    // FIX(0.765366865)
        let t0 = (d0 &+ d4) &<< constBits
        let t1 = (d0 &- d4) &<< constBits
        let t10 = t0 &+ t3, t13 = t0 &- t3, t11 = t1 &+ t2, t12 = t1 &- t2
        // Odd part.
        var o0 = d7, o1 = d5, o2 = d3, o3 = d1
        z1 = o0 &+ o3
        var z2 = o1 &+ o2, z3 = o0 &+ o2, z4 = o1 &+ o3
        let z5 = (z3 &+ z4) &* 9633                  // FIX(1.175875602)
        o0 = o0 &* 2446                              // FIX(0.298631336)
        o1 = o1 &* 16819                             // FIX(2.053119869)
        o2 = o2 &* 25172                             // FIX(3.072711026)
        o3 = o3 &* 12299                             // FIX(1.501321110)
        z1 = z1 &* -7373                             // -FIX(0.899976223)
        z2 = z2 &* -20995                            // -FIX(2.562915447)
        z3 = z3 &* -16069 &+ z5                      // -FIX(1.961570560)
        z4 = z4 &* -3196 &+ z5                       // -FIX(0.390180644)
        o0 = o0 &+ z1 &+ z3; o1 = o1 &+ z2 &+ z4; o2 = o2 &+ z2 &+ z3; o3 = o3 &+ z1 &+ z4
        return (t10 &+ o3, t11 &+ o2, t12 &+ o1, t13 &+ o0, t13 &- o0, t12 &- o1, t11 &- o2, t10 &- o3)
    }
}
