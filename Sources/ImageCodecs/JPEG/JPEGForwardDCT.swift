import Foundation

/// The forward DCT and quantisation of one 8×8 block, in 16-bit lanes.
///
/// The transform is the Arai–Agui–Nakajima factorisation (five multiplies per
/// 1-D pass): its output is each coefficient times a known per-row and
/// per-column scale, which is folded into the quantisation reciprocals. Each
/// block row is one `SIMD8<Int16>` (eight lanes per SSE register, twice what
/// `Float` gives): a 1-D pass across the eight row vectors transforms all
/// eight columns at once; a transpose, and the same pass transforms the rows.
///
/// Samples come doubled (`JPEGSampleBands`), so the first pass keeps half a
/// level of precision; its multiplies round to nearest. The second pass's
/// inputs reach ±2¹⁴·1.3, so its multiplies take the operand unshifted and
/// their results are centred (±1 of the scaled output, where a quantisation
/// step is at least about 20 of them). Every product input stays within
/// `Int16` for any samples (bounds below), and sums may wrap in between: only
/// the final values, at most ±25,915, must fit.
enum JPEGForwardDCT {
    /// One quantisation table in the transform's output layout (vector `u` =
    /// horizontal frequency, lane `v` = vertical frequency): for each
    /// coefficient its step `s` in transform units (q · 16 · its AAN scale),
    /// rounded, and 2¹⁶ / `s`. Eight rounding vectors, eight reciprocals, then
    /// the four rotation constants of the first pass (`Constants`).
    struct Quantizer {
        var vectors: [SIMD8<UInt16>]

        /// From a quantisation table in zigzag order (as DQT stores it).
        init(zigzagTable table: [Int]) {
            // AAN output scale of frequency k: √2·cos(kπ/16), 1 for k = 0; the
            // DCT's 8, and the doubled samples' 2.
            let scale: [Double] = (0..<8).map { $0 == 0 ? 1 : 2.0.squareRoot() * cos(Double($0) * .pi / 16) }
            var natural = [Double](repeating: 1, count: 64)
            for k in 0..<64 { natural[jpegZigzagToNatural[k]] = Double(table[k]) }
            var steps: [SIMD8<UInt16>] = [], reciprocals: [SIMD8<UInt16>] = []
            for u in 0..<8 {
                var step = SIMD8<UInt16>(), reciprocal = SIMD8<UInt16>()
                for v in 0..<8 {
                    // 1.2 (q = 1, u = v = 7) ... 7,834 (q = 255, u = v = 1).
                    let size = natural[v * 8 + u] * scale[u] * scale[v] * 16
                    step[v] = UInt16(size.rounded())
                    reciprocal[v] = UInt16(min(65_535, (65_536 / size).rounded()))
                }
                steps.append(step)
                reciprocals.append(reciprocal)
            }
            let constants = JPEGForwardDCT.standard
            vectors = steps + reciprocals + [constants.0, constants.1, constants.2, constants.3].map { SIMD8(truncatingIfNeeded: $0) }
        }
    }

    /// For each zigzag position, where its coefficient is in a transposed block
    /// (the transform's output order: horizontal frequency `u`, vertical `v` at u·8+v).
    static let zigzagFromTransposed: [Int] = jpegZigzagToNatural.prefix(64).map { ($0 % 8) * 8 + $0 / 8 }

    typealias Row = SIMD8<Int16>
    typealias Block = (Row, Row, Row, Row, Row, Row, Row, Row)

    /// The pass's multipliers ×2¹⁵: c4 = 0.707106781, c6 = 0.382683433,
    /// c2 − c6 = 0.541196100 and c2 + c6 − 1 = 0.306562965.
    typealias Constants = (Row, Row, Row, Row)

    /// The constants as literals.
    static let standard: Constants = (Row(repeating: 23_170), Row(repeating: 12_540), Row(repeating: 17_734), Row(repeating: 10_045))

    /// Transforms the 8×8 samples at `samples` (rows `stride` samples apart, as
    /// `JPEGSampleBands` stores them) and writes the quantised coefficients as a
    /// transposed block: entry u·8+v is horizontal frequency `u`, vertical `v`.
    /// The Huffman coder reads it in zigzag order through `zigzagFromTransposed`,
    /// visiting only the nonzero coefficients, so no reordering pass is needed
    /// here. `quantizer` points at a `Quantizer`'s 16 vectors.
    @inline(__always)
    static func transformAndQuantize(_ samples: UnsafePointer<Int16>, stride: Int, quantizer: UnsafePointer<SIMD8<UInt16>>,
                                     into output: UnsafeMutablePointer<Int16>) {
        let raw = UnsafeRawPointer(samples), rowBytes = stride * 2
        @inline(__always) func row(_ r: Int) -> Row { raw.loadUnaligned(fromByteOffset: r * rowBytes, as: Row.self) }
        // Vertical pass: vector r is row r, lanes are the columns (in the bands'
        // order 0, 4, 1, 5, 2, 6, 3, 7). Inputs are at most ±256.
        var d: Block = (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        // The first pass reads its constants from memory: as literals, the
        // optimiser folds the operand's pre-shift into them, and products
        // that no longer fit 16 bits take six instructions instead of one.
        let stored = UnsafeRawPointer(quantizer + 16)
        pass(&d, constants: (stored.load(as: Row.self), stored.load(fromByteOffset: 16, as: Row.self),
                             stored.load(fromByteOffset: 32, as: Row.self), stored.load(fromByteOffset: 48, as: Row.self)),
             multiply: firstPassProduct)
        // Transposed, vector i holds column 0, 4, 1, 5, 2, 6, 3, 7 (lanes: vertical frequencies).
        let t = transpose(d)
        var columns: Block = (t.0, t.2, t.4, t.6, t.1, t.3, t.5, t.7)
        pass(&columns, constants: standard, multiply: secondPassProduct)
        let q = UnsafeRawPointer(quantizer), out = UnsafeMutableRawPointer(output)
        @inline(__always) func store(_ u: Int, _ y: Row) {
            out.storeBytes(of: quantize(y, step: q.load(fromByteOffset: u * 16, as: SIMD8<UInt16>.self),
                                        reciprocal: q.load(fromByteOffset: 128 + u * 16, as: SIMD8<UInt16>.self)),
                           toByteOffset: u * 16, as: Row.self)
        }
        store(0, columns.0); store(1, columns.1); store(2, columns.2); store(3, columns.3)
        store(4, columns.4); store(5, columns.5); store(6, columns.6); store(7, columns.7)
    }

    /// The AAN 8-point forward DCT across the eight vectors, lane by lane.
    /// With inputs within ±m, every multiplied operand is within ±8m (sums of
    /// eight inputs with signs), and the outputs within ±10.06m.
    @inline(__always)
    private static func pass(_ d: inout Block, constants c: Constants, multiply: (Row, Row) -> Row) {
        let tmp0 = d.0 &+ d.7, tmp7 = d.0 &- d.7, tmp1 = d.1 &+ d.6, tmp6 = d.1 &- d.6
        let tmp2 = d.2 &+ d.5, tmp5 = d.2 &- d.5, tmp3 = d.3 &+ d.4, tmp4 = d.3 &- d.4
        // Even part.
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3, tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        d.0 = tmp10 &+ tmp11
        d.4 = tmp10 &- tmp11
        let z1 = multiply(tmp12 &+ tmp13, c.0)                     // c4
        d.2 = tmp13 &+ z1
        d.6 = tmp13 &- z1
        // Odd part (the rotator arranged to need no negations).
        let odd10 = tmp4 &+ tmp5, odd11 = tmp5 &+ tmp6, odd12 = tmp6 &+ tmp7
        let z5 = multiply(odd10 &- odd12, c.1)                     // c6
        let z2 = multiply(odd10, c.2) &+ z5                        // c2 − c6
        let z4 = odd12 &+ multiply(odd12, c.3) &+ z5               // c2 + c6
        let z3 = multiply(odd11, c.0)                              // c4
        let z11 = tmp7 &+ z3, z13 = tmp7 &- z3
        d.5 = z13 &+ z2
        d.3 = z13 &- z2
        d.1 = z11 &+ z4
        d.7 = z11 &- z4
    }

    /// `v` × `constant` / 2¹⁵ rounded to nearest, for |v| ≤ 8191 (the first
    /// pass: inputs ±256, so operands ±2048): the high half of 4v × constant is
    /// twice the product, whose low bit rounds.
    @inline(__always)
    private static func firstPassProduct(_ v: Row, _ constant: Row) -> Row {
        (highProduct(v &<< 2, constant) &+ 1) &>> 1
    }

    /// `v` × `constant` / 2¹⁵ within ±1, for any `v` (the second pass: inputs
    /// within ±2,576, operands ±20,608): the high half of v × constant is half
    /// the product, rounded down; doubled and made odd, it is centred on it.
    @inline(__always)
    private static func secondPassProduct(_ v: Row, _ constant: Row) -> Row {
        (highProduct(v, constant) &<< 1) | 1
    }

    /// The high 16 bits of each 32-bit product (one `pmulhw`). Widened and
    /// narrowed lane by lane: the generic SIMD conversions are calls on this
    /// toolchain, the lane-wise form is matched to the instruction.
    @inline(__always)
    private static func highProduct(_ v: Row, _ c: Row) -> Row {
        let wide = SIMD8<Int32>(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]),
                                Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
        let factor = SIMD8<Int32>(Int32(c[0]), Int32(c[1]), Int32(c[2]), Int32(c[3]),
                                  Int32(c[4]), Int32(c[5]), Int32(c[6]), Int32(c[7]))
        let p = (wide &* factor) &>> 16
        return Row(Int16(truncatingIfNeeded: p[0]), Int16(truncatingIfNeeded: p[1]), Int16(truncatingIfNeeded: p[2]),
                   Int16(truncatingIfNeeded: p[3]), Int16(truncatingIfNeeded: p[4]), Int16(truncatingIfNeeded: p[5]),
                   Int16(truncatingIfNeeded: p[6]), Int16(truncatingIfNeeded: p[7]))
    }

    /// The high 16 bits of each unsigned 32-bit product (one `pmulhuw`), lane by lane as above.
    @inline(__always)
    private static func highProduct(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let x = SIMD8<UInt32>(UInt32(a[0]), UInt32(a[1]), UInt32(a[2]), UInt32(a[3]),
                              UInt32(a[4]), UInt32(a[5]), UInt32(a[6]), UInt32(a[7]))
        let y = SIMD8<UInt32>(UInt32(b[0]), UInt32(b[1]), UInt32(b[2]), UInt32(b[3]),
                              UInt32(b[4]), UInt32(b[5]), UInt32(b[6]), UInt32(b[7]))
        let p = (x &* y) &>> 16
        return SIMD8<UInt16>(UInt16(truncatingIfNeeded: p[0]), UInt16(truncatingIfNeeded: p[1]), UInt16(truncatingIfNeeded: p[2]),
                             UInt16(truncatingIfNeeded: p[3]), UInt16(truncatingIfNeeded: p[4]), UInt16(truncatingIfNeeded: p[5]),
                             UInt16(truncatingIfNeeded: p[6]), UInt16(truncatingIfNeeded: p[7]))
    }

    /// Quantises eight coefficients: sign · ⌊|y| / step + ½⌋, as
    /// ⌊(2|y| + step) · 2¹⁶/step / 2¹⁶⌋ / 2 in unsigned 16-bit lanes
    /// (2|y| + step ≤ 2·25,915 + 7,834 < 2¹⁶).
    @inline(__always)
    private static func quantize(_ y: Row, step: SIMD8<UInt16>, reciprocal: SIMD8<UInt16>) -> Row {
        let sign = y &>> 15
        let magnitude = unsafeBitCast((y ^ sign) &- sign, to: SIMD8<UInt16>.self)
        let scaled = (magnitude &<< 1) &+ step
        let quotient = unsafeBitCast(highProduct(scaled, reciprocal) &>> 1, to: Row.self)
        return (quotient ^ sign) &- sign
    }

    /// An 8×8 transpose of 16-bit lanes: interleave words, then pairs, then
    /// quadruples (the unpack pattern, 24 shuffles).
    @inline(__always)
    private static func transpose(_ r: Block) -> Block {
        let t0 = words(r.0, r.1, high: false), t1 = words(r.0, r.1, high: true)
        let t2 = words(r.2, r.3, high: false), t3 = words(r.2, r.3, high: true)
        let t4 = words(r.4, r.5, high: false), t5 = words(r.4, r.5, high: true)
        let t6 = words(r.6, r.7, high: false), t7 = words(r.6, r.7, high: true)
        let u0 = pairs(t0, t2, high: false), u1 = pairs(t0, t2, high: true)
        let u2 = pairs(t1, t3, high: false), u3 = pairs(t1, t3, high: true)
        let u4 = pairs(t4, t6, high: false), u5 = pairs(t4, t6, high: true)
        let u6 = pairs(t5, t7, high: false), u7 = pairs(t5, t7, high: true)
        return (halves(u0, u4, high: false), halves(u0, u4, high: true), halves(u1, u5, high: false), halves(u1, u5, high: true),
                halves(u2, u6, high: false), halves(u2, u6, high: true), halves(u3, u7, high: false), halves(u3, u7, high: true))
    }

    /// The low (or high) four 16-bit lanes of `a` and `b`, interleaved.
    @inline(__always)
    private static func words(_ a: Row, _ b: Row, high: Bool) -> Row {
        high ? Row(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]) : Row(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
    }

    /// The low (or high) two 32-bit lanes of `a` and `b`, interleaved.
    @inline(__always)
    private static func pairs(_ a: Row, _ b: Row, high: Bool) -> Row {
        let x = unsafeBitCast(a, to: SIMD4<Int32>.self), y = unsafeBitCast(b, to: SIMD4<Int32>.self)
        return unsafeBitCast(high ? SIMD4(x[2], y[2], x[3], y[3]) : SIMD4(x[0], y[0], x[1], y[1]), to: Row.self)
    }

    /// The low (or high) 64-bit halves of `a` and `b`, joined.
    @inline(__always)
    private static func halves(_ a: Row, _ b: Row, high: Bool) -> Row {
        let x = unsafeBitCast(a, to: SIMD2<Int64>.self), y = unsafeBitCast(b, to: SIMD2<Int64>.self)
        return unsafeBitCast(high ? SIMD2(x[1], y[1]) : SIMD2(x[0], y[0]), to: Row.self)
    }
}
