import Foundation

/// The inverse DCT, fused with dequantisation, level shift and clamping.
///
/// Full-size blocks use the floating-point AAN algorithm (the IJG library's
/// "float" IDCT) on `SIMD4<Float>` lanes, four blocks at a time with one block
/// per lane (`transformFour`), so neither pass needs a transpose. Float is
/// used rather than the 32-bit "islow" integer maths because the baseline
/// x86-64 target has no packed 32-bit multiply (SSE2 emulates it), while
/// packed float multiplies and adds are native; AAN also needs 5 multiplies
/// per 1-D transform rather than 12. Results differ from libjpeg-turbo's islow
/// by a level or two in a few samples (about 60 dB PSNR on photos).
///
/// Reduced-size outputs (scaled decodes, and subsampled chroma enlarged back
/// toward the output scale) apply small basis matrices, one per direction,
/// whose rows are box averages of the 8-point IDCT basis: the same samples as
/// a full IDCT followed by averaging, computed from the coefficients directly.
///
/// Hostile coefficients cannot trap: |coefficient × quantiser| < 2^31, so every
/// float stays finite; the float→int conversion uses bit operations with
/// wrapping integer arithmetic, and the result is clamped to 0...255.
enum JPEGInverseDCT {
    typealias Lanes = SIMD8<Float>
    typealias Quad = SIMD4<Float>

    /// Adding 1.5 × 2^23 to a float of magnitude below 2^22 leaves the integer
    /// nearest to it in the low mantissa bits; subtracting the bit pattern of
    /// 1.5 × 2^23 then gives that integer. A float→int conversion with only
    /// arithmetic and bit operations (no generic SIMD conversion call).
    private static let magic: Float = 12_582_912
    private static let magicBits: Int32 = 0x4B40_0000

    /// The per-component table `transform` dequantises with: the quantiser of
    /// each coefficient times the AAN scale factors of its row and column and
    /// the 1/8 of the 2-D IDCT, natural order. `table` holds 64 floats.
    static func fillMultipliers(_ quant: UnsafePointer<Int32>, into table: UnsafeMutablePointer<Float>) {
        for v in 0..<8 {
            for u in 0..<8 {
                table[v * 8 + u] = Float(Double(quant[v * 8 + u]) * aanScale(v) * aanScale(u) / 8)
            }
        }
    }

    /// cos(k·π/16)·√2, 1 for k = 0: the scaling the AAN butterflies leave out.
    private static func aanScale(_ k: Int) -> Double {
        k == 0 ? 1 : cos(Double(k) * Double.pi / 16) * 2.0.squareRoot()
    }

    /// For a reduced IDCT of `size` (4 or 2) samples per side: row `i` holds,
    /// for each frequency u, the mean over output sample i's box of
    /// C(u)/2 · cos((2x+1)uπ/16), x running over the 8/size full-size samples
    /// the box covers. `basis` holds size × 8 floats.
    static func fillReducedBasis(size: Int, into basis: UnsafeMutablePointer<Float>) {
        let box = 8 / size
        for i in 0..<size {
            for u in 0..<8 {
                var sum = 0.0
                for x in (i * box)..<((i + 1) * box) {
                    sum += cos(Double((2 * x + 1) * u) * Double.pi / 16)
                }
                let c = u == 0 ? 1 / 2.0.squareRoot() : 1
                basis[i * 8 + u] = Float(c / 2 * sum / Double(box))
            }
        }
    }

    /// True when every AC coefficient of the block is zero (the block is flat).
    @inline(__always)
    static func isDCOnly(_ input: UnsafePointer<Int16>) -> Bool {
        let words = UnsafeRawPointer(input)
        // Little-endian: the DC coefficient is the low 16 bits of the first word.
        var any = words.loadUnaligned(as: UInt64.self) & ~0xFFFF
        for i in 1..<16 { any |= words.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self) }
        return any == 0
    }

    /// A block whose AC coefficients are all zero (`isDCOnly`) as its flat
    /// 8×8 samples at `output`, rows `stride` bytes apart; `table` comes from
    /// `fillMultipliers`.
    @inline(__always)
    static func transformFlat(_ input: UnsafePointer<Int16>, _ table: UnsafePointer<Float>,
                              _ output: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        fill(output, stride, rows: 8, columns: 8, value: Float(input[0]) * table[0])
    }

    /// `fillMultipliers`' 64 floats (`table`) each repeated four times, the
    /// table `transformFour` multiplies whole vectors by. `wide` holds 256 floats.
    static func fillWideMultipliers(_ table: UnsafePointer<Float>, into wide: UnsafeMutablePointer<Float>) {
        for i in 0..<64 { (wide + 4 * i).update(repeating: table[i], count: 4) }
    }

    /// Transforms four blocks at once (coefficients at `inputs[0...3]`,
    /// samples to `outputs[0...3]`, rows `stride` bytes apart) with the AAN
    /// butterflies, one block per vector lane: both 1-D passes are
    /// then plain lane-wise arithmetic with no transpose in between, and the
    /// only shuffles are integer interleaves that gather the coefficients and
    /// the 32-bit unpacks that lay out the output rows. The same block may
    /// appear more than once (its samples are then written more than once).
    /// `wide` comes from `fillWideMultipliers`; `workspace` holds 256 floats.
    @inline(__always)
    static func transformFour(_ inputs: UnsafePointer<UnsafePointer<Int16>>, _ wide: UnsafePointer<Float>,
                              _ outputs: UnsafePointer<UnsafeMutablePointer<UInt8>>, _ stride: Int,
                              _ workspace: UnsafeMutablePointer<Float>) {
        typealias Words = SIMD4<Int32>
        let t = UnsafeRawPointer(wide)
        let w = UnsafeMutableRawPointer(workspace)
        let block0 = UnsafeRawPointer(inputs[0]), block1 = UnsafeRawPointer(inputs[1])
        let block2 = UnsafeRawPointer(inputs[2]), block3 = UnsafeRawPointer(inputs[3])
        // A row of eight coefficients read as four 32-bit words (two
        // coefficients each, the even one in the low half): shifts split it
        // into its even and odd columns as 32-bit lanes, with no shuffles.
        @inline(__always) func evens(_ x: Words) -> Words { (x &<< 16) &>> 16 }
        @inline(__always) func odds(_ x: Words) -> Words { x &>> 16 }
        // The 4×4 transpose of four such halves (one per block): vector j
        // holds column j of the half for blocks 0...3.
        @inline(__always) func transpose(_ p: Words, _ q: Words, _ r: Words, _ s: Words) -> (Words, Words, Words, Words) {
            let pq0 = Words(p[0], q[0], p[1], q[1]), pq1 = Words(p[2], q[2], p[3], q[3])
            let rs0 = Words(r[0], s[0], r[1], s[1]), rs1 = Words(r[2], s[2], r[3], s[3])
            return (Words(pq0[0], pq0[1], rs0[0], rs0[1]), Words(pq0[2], pq0[3], rs0[2], rs0[3]),
                    Words(pq1[0], pq1[1], rs1[0], rs1[1]), Words(pq1[2], pq1[3], rs1[2], rs1[3]))
        }
        // Slot i (= v·8 + u) of the workspace: one coefficient or intermediate value of the four blocks.
        @inline(__always) func put(_ i: Int, _ q: Quad) { w.storeBytes(of: q, toByteOffset: i * 16, as: Quad.self) }
        @inline(__always) func get(_ i: Int) -> Quad { w.load(fromByteOffset: i * 16, as: Quad.self) }
        @inline(__always) func dequantised(_ i: Int, _ q: Words) { put(i, Quad(q) * t.loadUnaligned(fromByteOffset: i * 16, as: Quad.self)) }
        for v in 0..<8 {
            let a = block0.loadUnaligned(fromByteOffset: v * 16, as: Words.self)
            let b = block1.loadUnaligned(fromByteOffset: v * 16, as: Words.self)
            let c = block2.loadUnaligned(fromByteOffset: v * 16, as: Words.self)
            let d = block3.loadUnaligned(fromByteOffset: v * 16, as: Words.self)
            let even = transpose(evens(a), evens(b), evens(c), evens(d))
            let odd = transpose(odds(a), odds(b), odds(c), odds(d))
            dequantised(v * 8, even.0); dequantised(v * 8 + 1, odd.0)
            dequantised(v * 8 + 2, even.1); dequantised(v * 8 + 3, odd.1)
            dequantised(v * 8 + 4, even.2); dequantised(v * 8 + 5, odd.2)
            dequantised(v * 8 + 6, even.3); dequantised(v * 8 + 7, odd.3)
        }
        // Pass 1, down each column u.
        for u in 0..<8 {
            let x = butterfly(get(u), get(8 + u), get(16 + u), get(24 + u), get(32 + u), get(40 + u), get(48 + u), get(56 + u))
            put(u, x.0); put(8 + u, x.1); put(16 + u, x.2); put(24 + u, x.3)
            put(32 + u, x.4); put(40 + u, x.5); put(48 + u, x.6); put(56 + u, x.7)
        }
        // Pass 2, along each row y, then each block's eight bytes of the row.
        for y in 0..<8 {
            let i = y * 8
            let x = butterfly(get(i), get(i + 1), get(i + 2), get(i + 3), get(i + 4), get(i + 5), get(i + 6), get(i + 7))
            // Lane b: block b's bytes 0...3 (left) and 4...7 (right) of the row.
            let left = samples(x.0) | samples(x.1) &<< 8 | samples(x.2) &<< 16 | samples(x.3) &<< 24
            let right = samples(x.4) | samples(x.5) &<< 8 | samples(x.6) &<< 16 | samples(x.7) &<< 24
            storeRow(left, right, outputs, y * stride)
        }
    }

    /// Writes row `offset / stride` of four blocks from `transformFour`: lane
    /// b of `left` and `right` holds block b's bytes 0...3 and 4...7. Out of
    /// line on purpose: when LLVM sees the lanes picked apart it pushes the
    /// shuffles back through the arithmetic and scalarises the second pass.
    @inline(never)
    private static func storeRow(_ left: SIMD4<Int32>, _ right: SIMD4<Int32>,
                                 _ outputs: UnsafePointer<UnsafeMutablePointer<UInt8>>, _ offset: Int) {
        let first = unsafeBitCast(SIMD4<Int32>(left[0], right[0], left[1], right[1]), to: SIMD2<UInt64>.self)
        let second = unsafeBitCast(SIMD4<Int32>(left[2], right[2], left[3], right[3]), to: SIMD2<UInt64>.self)
        UnsafeMutableRawPointer(outputs[0] + offset).storeBytes(of: first[0], as: UInt64.self)
        UnsafeMutableRawPointer(outputs[1] + offset).storeBytes(of: first[1], as: UInt64.self)
        UnsafeMutableRawPointer(outputs[2] + offset).storeBytes(of: second[0], as: UInt64.self)
        UnsafeMutableRawPointer(outputs[3] + offset).storeBytes(of: second[1], as: UInt64.self)
    }

    /// Transforms one block to `rows`×`columns` samples (each 1, 2, 4 or 8):
    /// the box averages of the full-size result. `quant` is the plain
    /// quantisation table (as floats); `verticalBasis` and `horizontalBasis`
    /// come from `fillReducedBasis(size:)` for `rows` and `columns`. `flat`
    /// says whether the block has no AC coefficient, when the caller knows (nil: test it).
    @inline(__always)
    static func transformReduced(_ input: UnsafePointer<Int16>, flat: Bool?, _ quant: UnsafePointer<Float>,
                                 _ verticalBasis: UnsafePointer<Float>, rows size: Int,
                                 _ horizontalBasis: UnsafePointer<Float>, columns: Int,
                                 _ output: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        if flat ?? isDCOnly(input) {
            // The DC basis entry is 1/(2√2) in both directions: the mean is DC/8.
            fill(output, stride, rows: size, columns: columns, value: Float(input[0]) * quant[0] * 0.125)
            return
        }
        let basis = verticalBasis
        let q = UnsafeRawPointer(quant), b = UnsafeRawPointer(horizontalBasis)
        var rows = (Lanes(), Lanes(), Lanes(), Lanes(), Lanes(), Lanes(), Lanes(), Lanes())
        withUnsafeMutableBytes(of: &rows) { storage in
            for v in 0..<8 {
                storage.storeBytes(of: lanes(input + v * 8) * q.loadUnaligned(fromByteOffset: v * 32, as: Lanes.self),
                                   toByteOffset: v * 32, as: Lanes.self)
            }
        }
        for i in 0..<size {
            // Vertical pass for output row i: lanes = horizontal frequency.
            let a = basis + i * 8
            var acc = rows.0 * a[0] + rows.1 * a[1] + rows.2 * a[2] + rows.3 * a[3]
            acc += rows.4 * a[4] + rows.5 * a[5] + rows.6 * a[6] + rows.7 * a[7]
            for j in 0..<columns {
                // Horizontal pass: a dot product with basis row j.
                let h = acc * b.loadUnaligned(fromByteOffset: j * 32, as: Lanes.self)
                let sum = ((h[0] + h[1]) + (h[2] + h[3])) + ((h[4] + h[5]) + (h[6] + h[7]))
                output[i * stride + j] = UInt8(truncatingIfNeeded: clampedSample(sum))
            }
        }
    }

    /// The table `transformHalf` uses: each quantiser times the weights of its
    /// row and column. A 4-sample box average of the 8-point basis is
    /// C(k)/2 · cos(kπ/16) · cos((2i+1)kπ/8): a 4-point IDCT basis scaled by
    /// C(k)/2 · cos(kπ/16). Frequency 4 averages to zero, and 8 − k folds onto
    /// k with its sign flipped (cos((2i+1)(8−k)π/8) = −cos((2i+1)kπ/8)), so
    /// the weights carry that sign and `transformHalf` adds the pairs.
    static func fillHalfWeights(_ quant: UnsafePointer<Int32>, into table: UnsafeMutablePointer<Float>) {
        func weight(_ k: Int) -> Double {
            if k == 4 { return 0 }
            let magnitude = (k == 0 ? 1 / 2.0.squareRoot() : 1) / 2 * cos(Double(k) * Double.pi / 16)
            return k > 4 ? -magnitude : magnitude
        }
        for v in 0..<8 {
            for u in 0..<8 {
                table[v * 8 + u] = Float(Double(quant[v * 8 + u]) * weight(v) * weight(u))
            }
        }
    }

    /// Transforms one block to 4×4 samples (the box averages of the full
    /// result, as `transformReduced` with 4 rows and columns computes them, in
    /// far fewer operations): the 8×8 coefficients fold to 4×4 (see
    /// `fillHalfWeights`), then a 4-point IDCT runs down the columns and
    /// along the rows. `flat` as for `transformReduced`.
    @inline(__always)
    static func transformHalf(_ input: UnsafePointer<Int16>, flat: Bool?, _ weights: UnsafePointer<Float>,
                              _ output: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        if flat == true {
            fill(output, stride, rows: 4, columns: 4, value: Float(input[0]) * weights[0])
            return
        }
        // Which rows hold non-zero coefficients: most blocks have none in the
        // lower half (rows 4...7), whose folding can then be skipped.
        let words = UnsafeRawPointer(input)
        var upper = words.loadUnaligned(as: UInt64.self) & ~0xFFFF
        for i in 1..<8 { upper |= words.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self) }
        var lower: UInt64 = 0
        for i in 8..<16 { lower |= words.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self) }
        if upper | lower == 0 {
            fill(output, stride, rows: 4, columns: 4, value: Float(input[0]) * weights[0])
            return
        }
        let t = UnsafeRawPointer(weights)
        // Row v of weighted coefficients with columns 8 − k added onto k (column 4 weighs 0).
        @inline(__always) func folded(_ v: Int) -> Quad {
            let r = lanes(input + v * 8) * t.loadUnaligned(fromByteOffset: v * 32, as: Lanes.self)
            return r.lowHalf + Quad(r[4], r[7], r[6], r[5])
        }
        var g1 = folded(1), g2 = folded(2), g3 = folded(3)
        if lower != 0 {
            g1 += folded(7)
            g2 += folded(6)
            g3 += folded(5)
        }
        let g0 = folded(0)
        // Vertical pass with lanes = output rows i: column k of the result is
        // Σ_v G(v, k)·cos((2i+1)vπ/8), each G broadcast across the lanes.
        // Built this way no transpose is needed between the passes (through
        // memory it stalls on store forwarding; LLVM scalarised it).
        let c1: Float = 0.923_879_532, c2: Float = 0.707_106_781, c3: Float = 0.382_683_432
        let even = Quad(c2, -c2, -c2, c2), odd1 = Quad(c1, c3, -c3, -c1), odd3 = Quad(c3, -c1, c1, -c3)
        @inline(__always) func column(_ k: Int) -> Quad {
            (Quad(repeating: g0[k]) + Quad(repeating: g2[k]) * even)
                + (Quad(repeating: g1[k]) * odd1 + Quad(repeating: g3[k]) * odd3)
        }
        // Horizontal pass: output column j from the four columns (lanes = rows).
        let x = halfButterfly(column(0), column(1), column(2), column(3))
        // Lane i of the packed vector is output row i's four bytes.
        let packed = samples(x.0) | samples(x.1) &<< 8 | samples(x.2) &<< 16 | samples(x.3) &<< 24
        let rows = unsafeBitCast(packed, to: SIMD2<UInt64>.self)
        UnsafeMutableRawPointer(output).storeBytes(of: UInt32(truncatingIfNeeded: rows[0]), as: UInt32.self)
        UnsafeMutableRawPointer(output + stride).storeBytes(of: UInt32(truncatingIfNeeded: rows[0] >> 32), as: UInt32.self)
        UnsafeMutableRawPointer(output + 2 * stride).storeBytes(of: UInt32(truncatingIfNeeded: rows[1]), as: UInt32.self)
        UnsafeMutableRawPointer(output + 3 * stride).storeBytes(of: UInt32(truncatingIfNeeded: rows[1] >> 32), as: UInt32.self)
    }

    /// The 4-point 1-D IDCT (sample i = Σ G(k)·cos((2i+1)kπ/8)) on four lanes at once.
    @inline(__always)
    private static func halfButterfly(_ g0: Quad, _ g1: Quad, _ g2: Quad, _ g3: Quad) -> (Quad, Quad, Quad, Quad) {
        let c1: Float = 0.923_879_532, c2: Float = 0.707_106_781, c3: Float = 0.382_683_432
        let e0 = g0 + g2 * c2, e1 = g0 - g2 * c2
        let o0 = g1 * c1 + g3 * c3, o1 = g1 * c3 - g3 * c1
        return (e0 + o0, e1 + o1, e1 - o1, e0 - o0)
    }

    /// The table `transformQuarter` uses: each quantiser times the 2×2
    /// basis weights of its row and column (`basis` row 0, from
    /// `fillReducedBasis(size: 2)`). Even frequencies other than 0 average to
    /// zero over a 4-sample box, so their weights are 0.
    static func fillQuarterWeights(_ quant: UnsafePointer<Int32>, _ basis: UnsafePointer<Float>,
                                   into table: UnsafeMutablePointer<Float>) {
        for v in 0..<8 {
            for u in 0..<8 {
                table[v * 8 + u] = Float(Double(quant[v * 8 + u]) * Double(basis[v]) * Double(basis[u]))
            }
        }
    }

    /// Transforms one block to 2×2 samples (the 1/4-scale decode): only the
    /// 25 coefficients whose row and column are 0 or odd matter. Output
    /// sample (i, j) adds them with the sign (−1)^(v·i + u·j), since the
    /// second box's basis values mirror the first's. `flat` as for `transformReduced`.
    @inline(__always)
    static func transformQuarter(_ input: UnsafePointer<Int16>, flat: Bool?, _ weights: UnsafePointer<Float>,
                                 _ output: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        if flat ?? isDCOnly(input) {
            // Most blocks of flat areas: sixteen word tests instead of 25 products.
            fill(output, stride, rows: 2, columns: 2, value: Float(input[0]) * weights[0])
            return
        }
        // Whole weighted rows (the weights of even columns other than 0 are
        // zero, so a row's sum less its column 0 is its odd columns' sum).
        let t = UnsafeRawPointer(weights)
        @inline(__always) func row(_ v: Int) -> Lanes {
            lanes(input + v * 8) * t.loadUnaligned(fromByteOffset: v * 32, as: Lanes.self)
        }
        @inline(__always) func sum(_ r: Lanes) -> Float {
            let q = r.lowHalf + r.highHalf
            return (q[0] + q[1]) + (q[2] + q[3])
        }
        let even = row(0), odd = (row(1) + row(3)) + (row(5) + row(7))
        let evenEven = even[0], evenOdd = sum(even) - even[0]
        let oddEven = odd[0], oddOdd = sum(odd) - odd[0]
        let top = evenEven + oddEven, bottom = evenEven - oddEven
        let topOdd = evenOdd + oddOdd, bottomOdd = evenOdd - oddOdd
        output[0] = UInt8(truncatingIfNeeded: clampedSample(top + topOdd))
        output[1] = UInt8(truncatingIfNeeded: clampedSample(top - topOdd))
        output[stride] = UInt8(truncatingIfNeeded: clampedSample(bottom + bottomOdd))
        output[stride + 1] = UInt8(truncatingIfNeeded: clampedSample(bottom - bottomOdd))
    }

    /// The block's average (its DC term) as one sample: the 1/8-scale decode.
    /// `quant` is the plain quantisation table as floats (exact integers).
    @inline(__always)
    static func transformDC(_ input: UnsafePointer<Int16>, _ quant: UnsafePointer<Float>) -> UInt8 {
        clamp(((Int(input[0]) &* Int(quant[0])) &+ 4) &>> 3 &+ 128)
    }

    @inline(__always)
    static func clamp(_ value: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: value < 0 ? 0 : (value > 255 ? 255 : value))
    }

    /// A flat `rows`×`columns` block of the level-shifted, rounded, clamped `value`.
    @inline(__always)
    private static func fill(_ output: UnsafeMutablePointer<UInt8>, _ stride: Int, rows: Int, columns: Int, value: Float) {
        let sample = UInt8(truncatingIfNeeded: clampedSample(value))
        if columns == 8 {
            // Whole 64-bit stores (`update(repeating:)` becomes a memset call).
            let word = UInt64(sample) &* 0x0101_0101_0101_0101
            for y in 0..<rows { UnsafeMutableRawPointer(output + y * stride).storeBytes(of: word, as: UInt64.self) }
            return
        }
        for y in 0..<rows {
            (output + y * stride).update(repeating: sample, count: columns)
        }
    }

    /// `value` + 128 rounded to the nearest integer and clamped to 0...255.
    @inline(__always)
    private static func clampedSample(_ value: Float) -> Int32 {
        let rounded = (value + (magic + 128)).bitPattern
        let v = Int32(bitPattern: rounded) &- magicBits
        return v < 0 ? 0 : (v > 255 ? 255 : v)
    }

    /// Four lanes of `value` + 128, rounded and clamped to 0...255, with
    /// arithmetic and bit operations only (no generic SIMD min/max calls).
    @inline(__always)
    private static func samples(_ value: Quad) -> SIMD4<Int32> {
        let v = unsafeBitCast(value + (magic + 128), to: SIMD4<Int32>.self) &- magicBits
        let positive = v & ~(v &>> 31)                      // negative → 0
        let over = (255 &- positive) &>> 31                 // all ones where > 255
        return (positive & ~over) | (255 & over)
    }

    /// Eight coefficients as floats (exact: |Int16| < 2^22), via the same
    /// bit-pattern trick run backwards.
    @inline(__always)
    private static func lanes(_ p: UnsafePointer<Int16>) -> Lanes {
        let integers = SIMD8<Int32>(Int32(p[0]), Int32(p[1]), Int32(p[2]), Int32(p[3]),
                                    Int32(p[4]), Int32(p[5]), Int32(p[6]), Int32(p[7]))
        return unsafeBitCast(integers &+ magicBits, to: Lanes.self) - magic
    }

    /// The 8-point 1-D AAN IDCT on four lanes at once; inputs already carry
    /// the AAN scale factors (see `fillMultipliers`).
    @inline(__always)
    private static func butterfly(_ d0: Quad, _ d1: Quad, _ d2: Quad, _ d3: Quad,
                                  _ d4: Quad, _ d5: Quad, _ d6: Quad, _ d7: Quad)
        -> (Quad, Quad, Quad, Quad, Quad, Quad, Quad, Quad) {
        // Even part.
        let t10 = d0 + d4, t11 = d0 - d4
        let t13 = d2 + d6
        let t12 = (d2 - d6) * 1.414213562 - t13      // 2·c4
        let e0 = t10 + t13, e3 = t10 - t13, e1 = t11 + t12, e2 = t11 - t12
        // Odd part.
        let z13 = d5 + d3, z10 = d5 - d3, z11 = d1 + d7, z12 = d1 - d7
        let o7 = z11 + z13
        let o11 = (z11 - z13) * 1.414213562           // 2·c4
        let z5 = (z10 + z12) * 1.847759065            // 2·c2
        let o10 = z12 * 1.082392200 - z5              // 2·(c2 − c6)
        let o12 = z10 * -2.613125930 + z5             // −2·(c2 + c6)
        let o6 = o12 - o7, o5 = o11 - o6, o4 = o10 + o5
        return (e0 + o7, e1 + o6, e2 + o5, e3 - o4, e3 + o4, e2 - o5, e1 - o6, e0 - o7)
    }
}
