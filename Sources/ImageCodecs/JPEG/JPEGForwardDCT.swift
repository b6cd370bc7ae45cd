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

    /// For each zigzag position, where its coefficient is in the transform's
    /// output (vector `u`, lane `v` at entry u·8+v).
    static let zigzagFromTransposed: [Int] = jpegZigzagToNatural.prefix(64).map { ($0 % 8) * 8 + $0 / 8 }

    /// Transforms the 8×8 samples at `samples` (rows `stride` floats apart,
    /// level-shifted) and writes the quantised coefficients in zigzag order.
    /// `divisors` points at 8 vectors (`Divisors.vectors`), `order` at
    /// `zigzagFromTransposed`; `scratch` holds 64 values.
    @inline(__always)
    static func transformAndQuantize(_ samples: UnsafePointer<Float>, stride: Int,
                                     divisors: UnsafePointer<SIMD8<Float>>, order: UnsafePointer<Int>,
                                     scratch: UnsafeMutablePointer<Int16>, into output: UnsafeMutablePointer<Int16>) {
        let raw = UnsafeRawPointer(samples)
        let rowBytes = stride * MemoryLayout<Float>.stride
        var rows = (raw.loadUnaligned(as: SIMD8<Float>.self),
                    raw.loadUnaligned(fromByteOffset: rowBytes, as: SIMD8<Float>.self),
                    raw.loadUnaligned(fromByteOffset: 2 * rowBytes, as: SIMD8<Float>.self),
                    raw.loadUnaligned(fromByteOffset: 3 * rowBytes, as: SIMD8<Float>.self),
                    raw.loadUnaligned(fromByteOffset: 4 * rowBytes, as: SIMD8<Float>.self),
                    raw.loadUnaligned(fromByteOffset: 5 * rowBytes, as: SIMD8<Float>.self),
                    raw.loadUnaligned(fromByteOffset: 6 * rowBytes, as: SIMD8<Float>.self),
                    raw.loadUnaligned(fromByteOffset: 7 * rowBytes, as: SIMD8<Float>.self))
        pass(&rows)
        transpose(&rows)
        pass(&rows)
        // Whole vectors to the scratch block first: extracting lanes straight from
        // registers made the compiler turn the quantisation into scalar code.
        let out = UnsafeMutableRawPointer(scratch)
        out.storeBytes(of: quantize(rows.0 * divisors[0]), as: SIMD8<Int16>.self)
        out.storeBytes(of: quantize(rows.1 * divisors[1]), toByteOffset: 16, as: SIMD8<Int16>.self)
        out.storeBytes(of: quantize(rows.2 * divisors[2]), toByteOffset: 32, as: SIMD8<Int16>.self)
        out.storeBytes(of: quantize(rows.3 * divisors[3]), toByteOffset: 48, as: SIMD8<Int16>.self)
        out.storeBytes(of: quantize(rows.4 * divisors[4]), toByteOffset: 64, as: SIMD8<Int16>.self)
        out.storeBytes(of: quantize(rows.5 * divisors[5]), toByteOffset: 80, as: SIMD8<Int16>.self)
        out.storeBytes(of: quantize(rows.6 * divisors[6]), toByteOffset: 96, as: SIMD8<Int16>.self)
        out.storeBytes(of: quantize(rows.7 * divisors[7]), toByteOffset: 112, as: SIMD8<Int16>.self)
        for k in 0..<64 { output[k] = scratch[order[k]] }
    }

    typealias Block = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>,
                       SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)

    /// The AAN 8-point forward DCT across the eight vectors, lane by lane.
    @inline(__always)
    private static func pass(_ d: inout Block) {
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

    /// Transposes the 8×8 block in three perfect unshuffles: each sends element
    /// i·8+j of the 64 to its index rotated right by one bit, and three such
    /// rotations swap the row and column bits.
    @inline(__always)
    private static func transpose(_ d: inout Block) {
        for _ in 0..<3 {
            let p0 = SIMD16(lowHalf: d.0, highHalf: d.1), p1 = SIMD16(lowHalf: d.2, highHalf: d.3)
            let p2 = SIMD16(lowHalf: d.4, highHalf: d.5), p3 = SIMD16(lowHalf: d.6, highHalf: d.7)
            d = (p0.evenHalf, p1.evenHalf, p2.evenHalf, p3.evenHalf, p0.oddHalf, p1.oddHalf, p2.oddHalf, p3.oddHalf)
        }
    }

    /// Rounds eight scaled coefficients to integers in the 8-bit coefficient range.
    @inline(__always)
    private static func quantize(_ v: SIMD8<Float>) -> SIMD8<Int16> {
        // Round to nearest by adding 1.5·2²³ (the integer lands in the low mantissa
        // bits), then clamp. Arithmetic only: the SIMD float-to-integer initialisers
        // and min/max are generic calls on this toolchain. Coefficients of 8-bit
        // samples stay far inside the ±2²² where the rounding trick is exact.
        var integers = unsafeBitCast(v + 12_582_912, to: SIMD8<Int32>.self) &- 0x4B40_0000
        let low = (integers &+ 1024) &>> 31                      // all ones below −1024
        integers = (integers & ~low) | (-1024 & low)
        let high = (1023 &- integers) &>> 31                     // all ones above 1023
        integers = (integers & ~high) | (1023 & high)
        return SIMD8<Int16>(truncatingIfNeeded: integers)
    }
}
