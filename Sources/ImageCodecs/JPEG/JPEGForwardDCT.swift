import Foundation

/// The forward DCT and quantisation of one 8×8 block, eight lanes at a time.
///
/// The transform is the Arai–Agui–Nakajima factorisation in `Float` (the IJG
/// library's "float" method): its output is each coefficient times a known
/// per-row and per-column scale, which is folded into the quantisation
/// reciprocals, so quantising is one multiply and one rounding per coefficient.
/// Each block row is one `SIMD8<Float>`: a 1-D pass across the eight row
/// vectors transforms all eight columns at once; a transpose, and the same pass
/// transforms the rows.
enum JPEGForwardDCT {
    /// Reciprocal divisors for one quantisation table, in the transform's output
    /// layout (vector `u` = horizontal frequency, lane `v` = vertical frequency).
    struct Divisors {
        var vectors: [SIMD8<Float>]

        /// From a quantisation table in zigzag order (as DQT stores it).
        init(zigzagTable table: [Int]) {
            // AAN output scale of frequency k: √2·cos(kπ/16), 1 for k = 0; and the DCT's 8.
            let scale: [Double] = (0..<8).map { $0 == 0 ? 1 : 2.0.squareRoot() * cos(Double($0) * .pi / 16) }
            var natural = [Double](repeating: 1, count: 64)
            for k in 0..<64 { natural[jpegZigzagToNatural[k]] = Double(table[k]) }
            vectors = (0..<8).map { u in
                var lanes = SIMD8<Float>()
                for v in 0..<8 { lanes[v] = Float(1 / (natural[v * 8 + u] * scale[u] * scale[v] * 8)) }
                return lanes
            }
        }
    }

    /// For each zigzag position, where its coefficient is in a transposed block
    /// (the transform's output order: horizontal frequency `u`, vertical `v` at u·8+v).
    static let zigzagFromTransposed: [Int] = jpegZigzagToNatural.prefix(64).map { ($0 % 8) * 8 + $0 / 8 }

    /// Transforms the 8×8 samples at `samples` (rows `stride` floats apart,
    /// level-shifted) and writes the quantised coefficients as a transposed
    /// block: entry u·8+v is horizontal frequency `u`, vertical `v`. The Huffman
    /// coder reads it in zigzag order through `zigzagFromTransposed`, visiting
    /// only the nonzero coefficients, so no reordering pass is needed here.
    /// `divisors` points at 8 vectors (`Divisors.vectors`); `scratch` holds 16
    /// vectors between the passes.
    ///
    /// The block is worked on in 4-lane halves, and the vertical pass's output
    /// goes through `scratch`: eight 4-lane vectors and a pass's temporaries
    /// fit the sixteen SSE registers, where the whole block held at once spilled.
    @inline(__always)
    static func transformAndQuantize(_ samples: UnsafePointer<Float>, stride: Int, divisors: UnsafePointer<SIMD8<Float>>,
                                     scratch: UnsafeMutablePointer<SIMD4<Float>>, into output: UnsafeMutablePointer<Int16>) {
        // Vertical pass: vector r is row r, lanes are four columns; out come
        // vertical frequencies v, stored as scratch[half·8 + v].
        for half in 0..<2 {
            var rows = load(samples, stride: stride, column: 4 * half)
            pass(&rows)
            let out = scratch + 8 * half
            out[0] = rows.0; out[1] = rows.1; out[2] = rows.2; out[3] = rows.3
            out[4] = rows.4; out[5] = rows.5; out[6] = rows.6; out[7] = rows.7
        }
        // Horizontal pass, four vertical frequencies at a time: transposing the
        // two 4×4 quadrants of those frequencies gives vector x = column x.
        let raw = UnsafeMutableRawPointer(output), d = UnsafeRawPointer(divisors)
        for quarter in 0..<2 {
            let left = scratch + 4 * quarter, right = scratch + 8 + 4 * quarter
            let a = transpose4(left[0], left[1], left[2], left[3])
            let b = transpose4(right[0], right[1], right[2], right[3])
            var columns: Half = (a.0, a.1, a.2, a.3, b.0, b.1, b.2, b.3)
            pass(&columns)
            // Vector u holds frequency u for these four v: coefficients u·8 + 4·quarter ..< +4.
            func quantized(_ u: Int, _ v: SIMD4<Float>, _ w: SIMD4<Float>) {
                let scale0 = d.load(fromByteOffset: u * 32 + quarter * 16, as: SIMD4<Float>.self)
                let scale1 = d.load(fromByteOffset: (u + 1) * 32 + quarter * 16, as: SIMD4<Float>.self)
                let pair = quantize(SIMD8(lowHalf: v * scale0, highHalf: w * scale1))
                raw.storeBytes(of: pair.lowHalf, toByteOffset: u * 16 + quarter * 8, as: SIMD4<Int16>.self)
                raw.storeBytes(of: pair.highHalf, toByteOffset: (u + 1) * 16 + quarter * 8, as: SIMD4<Int16>.self)
            }
            quantized(0, columns.0, columns.1)
            quantized(2, columns.2, columns.3)
            quantized(4, columns.4, columns.5)
            quantized(6, columns.6, columns.7)
        }
    }

    /// Eight rows of four samples from `column`.
    typealias Half = (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>,
                      SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    @inline(__always)
    private static func load(_ samples: UnsafePointer<Float>, stride: Int, column: Int) -> Half {
        let raw = UnsafeRawPointer(samples + column), rowBytes = stride * MemoryLayout<Float>.stride
        return (raw.loadUnaligned(as: SIMD4<Float>.self),
                raw.loadUnaligned(fromByteOffset: rowBytes, as: SIMD4<Float>.self),
                raw.loadUnaligned(fromByteOffset: 2 * rowBytes, as: SIMD4<Float>.self),
                raw.loadUnaligned(fromByteOffset: 3 * rowBytes, as: SIMD4<Float>.self),
                raw.loadUnaligned(fromByteOffset: 4 * rowBytes, as: SIMD4<Float>.self),
                raw.loadUnaligned(fromByteOffset: 5 * rowBytes, as: SIMD4<Float>.self),
                raw.loadUnaligned(fromByteOffset: 6 * rowBytes, as: SIMD4<Float>.self),
                raw.loadUnaligned(fromByteOffset: 7 * rowBytes, as: SIMD4<Float>.self))
    }

    /// The AAN 8-point forward DCT across the eight vectors, lane by lane.
    @inline(__always)
    private static func pass(_ d: inout Half) {
        let tmp0 = d.0 + d.7, tmp7 = d.0 - d.7, tmp1 = d.1 + d.6, tmp6 = d.1 - d.6
        let tmp2 = d.2 + d.5, tmp5 = d.2 - d.5, tmp3 = d.3 + d.4, tmp4 = d.3 - d.4
        // Even part.
        let tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2
        d.0 = tmp10 + tmp11
        d.4 = tmp10 - tmp11
        let z1 = (tmp12 + tmp13) * 0.707_106_781                  // c4
        d.2 = tmp13 + z1
        d.6 = tmp13 - z1
        // Odd part (the rotator arranged to need no negations).
        let odd10 = tmp4 + tmp5, odd11 = tmp5 + tmp6, odd12 = tmp6 + tmp7
        let z5 = (odd10 - odd12) * 0.382_683_433                  // c6
        let z2 = 0.541_196_100 * odd10 + z5                       // c2 − c6
        let z4 = 1.306_562_965 * odd12 + z5                       // c2 + c6
        let z3 = odd11 * 0.707_106_781                            // c4
        let z11 = tmp7 + z3, z13 = tmp7 - z3
        d.5 = z13 + z2
        d.3 = z13 - z2
        d.1 = z11 + z4
        d.7 = z11 - z4
    }

    /// A 4×4 transpose: interleave the rows pairwise, then join the halves (the
    /// unpack / move-half pattern, eight shuffles).
    @inline(__always)
    private static func transpose4(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>)
        -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let ab0 = SIMD4(a[0], b[0], a[1], b[1]), ab1 = SIMD4(a[2], b[2], a[3], b[3])
        let cd0 = SIMD4(c[0], d[0], c[1], d[1]), cd1 = SIMD4(c[2], d[2], c[3], d[3])
        return (SIMD4(lowHalf: ab0.lowHalf, highHalf: cd0.lowHalf), SIMD4(lowHalf: ab0.highHalf, highHalf: cd0.highHalf),
                SIMD4(lowHalf: ab1.lowHalf, highHalf: cd1.lowHalf), SIMD4(lowHalf: ab1.highHalf, highHalf: cd1.highHalf))
    }

    /// Rounds eight scaled coefficients to integers.
    @inline(__always)
    private static func quantize(_ v: SIMD8<Float>) -> SIMD8<Int16> {
        // Round to nearest by adding 1.5·2²³ (the integer lands in the low mantissa
        // bits). Arithmetic only: the SIMD float-to-integer initialisers are generic
        // calls on this toolchain. Samples within ±128 bound every coefficient to
        // ±1024, far inside the ±2²² where this is exact, and inside JPEG's range.
        let integers = unsafeBitCast(v + 12_582_912, to: SIMD8<Int32>.self) &- 0x4B40_0000
        return SIMD8<Int16>(truncatingIfNeeded: integers)
    }
}
