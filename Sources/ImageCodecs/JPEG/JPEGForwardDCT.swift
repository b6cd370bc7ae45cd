/// The accurate integer forward DCT (the IJG "islow" algorithm), followed by
/// quantisation. Output coefficients are scaled by 8, which the quantiser's
/// divisors (8 × table entry) remove.
enum JPEGForwardDCT {
    private static let constBits = 13
    private static let pass1Bits = 2

    /// Transforms 64 level-shifted samples (`block`, row-major, in place) and
    /// writes quantised coefficients in zigzag order to `output`.
    /// `reciprocals` holds 1 / (8 × the quantisation table entry), natural order.
    @inline(__always)
    static func transformAndQuantize(_ block: UnsafeMutablePointer<Int32>, _ reciprocals: UnsafePointer<Double>,
                                     _ output: UnsafeMutablePointer<Int16>, _ zigzag: UnsafePointer<Int>) {
        for row in 0..<8 {
            let p = block + row * 8
            pass(p, 1, first: true)
        }
        for column in 0..<8 {
            pass(block + column, 8, first: false)
        }
        for k in 0..<64 {
            let index = zigzag[k]
            // Rounds half away from zero like an integer (|v| + d/2) / d, but with a
            // multiply: integer division dominated the encoder's time. Quotients of
            // these small integers are either exact or at least 1/2040 from an integer,
            // so the 1e-6 nudge only guards exact quotients against rounding below.
            let value = Double(block[index]), reciprocal = reciprocals[index]
            let magnitude = (value.magnitude * reciprocal + 0.5 + 1e-6).rounded(.down)
            output[k] = Int16(truncatingIfNeeded: Int32(value < 0 ? -magnitude : magnitude))
        }
    }

    @inline(__always)
    private static func pass(_ p: UnsafeMutablePointer<Int32>, _ step: Int, first: Bool) {
        let d0 = p[0], d1 = p[step], d2 = p[2 * step], d3 = p[3 * step]
        let d4 = p[4 * step], d5 = p[5 * step], d6 = p[6 * step], d7 = p[7 * step]
        let tmp0 = d0 &+ d7, tmp7 = d0 &- d7, tmp1 = d1 &+ d6, tmp6 = d1 &- d6
        let tmp2 = d2 &+ d5, tmp5 = d2 &- d5, tmp3 = d3 &+ d4, tmp4 = d3 &- d4
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3, tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        // First pass keeps pass1Bits of extra precision; the second removes it.
        let shift = first ? Int32(constBits - pass1Bits) : Int32(constBits + pass1Bits)
        let round: Int32 = 1 &<< (shift - 1)
        if first {
            p[0] = (tmp10 &+ tmp11) &<< Int32(pass1Bits)
            p[4 * step] = (tmp10 &- tmp11) &<< Int32(pass1Bits)
        } else {
            let r: Int32 = 1 &<< Int32(pass1Bits - 1)
            p[0] = (tmp10 &+ tmp11 &+ r) &>> Int32(pass1Bits)
            p[4 * step] = (tmp10 &- tmp11 &+ r) &>> Int32(pass1Bits)
        }
        let z1 = (tmp12 &+ tmp13) &* 4433                               // FIX(0.541196100)
        p[2 * step] = (z1 &+ tmp13 &* 6270 &+ round) &>> shift            // FIX(0.765366865)
        p[6 * step] = (z1 &- tmp12 &* 15137 &+ round) &>> shift           // FIX(1.847759065)
        let z5 = (tmp4 &+ tmp5 &+ tmp6 &+ tmp7) &* 9633                  // FIX(1.175875602)
        let o4 = tmp4 &* 2446, o5 = tmp5 &* 16819, o6 = tmp6 &* 25172, o7 = tmp7 &* 12299
        let z1o = (tmp4 &+ tmp7) &* -7373, z2o = (tmp5 &+ tmp6) &* -20995
        let z3o = (tmp4 &+ tmp6) &* -16069 &+ z5, z4o = (tmp5 &+ tmp7) &* -3196 &+ z5
        p[7 * step] = (o4 &+ z1o &+ z3o &+ round) &>> shift
        p[5 * step] = (o5 &+ z2o &+ z4o &+ round) &>> shift
        p[3 * step] = (o6 &+ z2o &+ z3o &+ round) &>> shift
        p[step] = (o7 &+ z1o &+ z4o &+ round) &>> shift
    }
}
