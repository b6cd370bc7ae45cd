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
    /// `divisors` points at 8 vectors (`Divisors.vectors`).
    @inline(__always)
    static func transformAndQuantize(_ samples: UnsafePointer<Float>, stride: Int,
                                     divisors: UnsafePointer<SIMD8<Float>>, into output: UnsafeMutablePointer<Int16>) {
        // The block as two 4-lane halves (columns 0–3 and 4–7): eight 4-lane
        // vectors and the pass's temporaries fit the sixteen SSE registers, where
        // 8-lane vectors spilled to the stack.
        var left = load(samples, stride: stride, column: 0)
        var right = load(samples, stride: stride, column: 4)
        pass(&left)
        pass(&right)
        transpose(&left, &right)
        pass(&left)
        pass(&right)
        let out = UnsafeMutableRawPointer(output)
        let d = UnsafeRawPointer(divisors)
        func quantized(_ u: Int, _ low: SIMD4<Float>, _ high: SIMD4<Float>) {
            let scale = d.load(fromByteOffset: u * 32, as: SIMD8<Float>.self)
            out.storeBytes(of: quantize(SIMD8(lowHalf: low, highHalf: high) * scale), toByteOffset: u * 16, as: SIMD8<Int16>.self)
        }
        quantized(0, left.0, right.0); quantized(1, left.1, right.1)
        quantized(2, left.2, right.2); quantized(3, left.3, right.3)
        quantized(4, left.4, right.4); quantized(5, left.5, right.5)
        quantized(6, left.6, right.6); quantized(7, left.7, right.7)
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

    /// Transposes the 8×8 block held as left (columns 0–3) and right (4–7)
    /// halves: each 4×4 quadrant is transposed in place, and the off-diagonal
    /// quadrants trade places.
    @inline(__always)
    private static func transpose(_ left: inout Half, _ right: inout Half) {
        let topLeft = transpose4(left.0, left.1, left.2, left.3)
        let bottomLeft = transpose4(left.4, left.5, left.6, left.7)
        let topRight = transpose4(right.0, right.1, right.2, right.3)
        let bottomRight = transpose4(right.4, right.5, right.6, right.7)
        left = (topLeft.0, topLeft.1, topLeft.2, topLeft.3, topRight.0, topRight.1, topRight.2, topRight.3)
        right = (bottomLeft.0, bottomLeft.1, bottomLeft.2, bottomLeft.3,
                 bottomRight.0, bottomRight.1, bottomRight.2, bottomRight.3)
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
