/// The loop filter of RFC 6386 section 15, run over a row of reconstructed
/// macroblocks: for each macroblock, its left edge, its inner vertical edges,
/// its top edge, then its inner horizontal edges, with the "simple" filter
/// (luma only, two pixels changed) or the "normal" one (luma and chroma, up
/// to three pixels each side on macroblock edges).
struct VP8LoopFilter {
    /// The filter settings of one macroblock, from its segment and prediction.
    struct Strength: Equatable {
        /// The edge limit of inner edges (macroblock edges add 4); 0: no filtering.
        var limit: Int32 = 0
        /// The interior limit (normal filter).
        var interiorLimit: Int32 = 0
        /// The high-edge-variance threshold (normal filter).
        var hevThreshold: Int32 = 0
        /// Whether the inner edges are filtered too (4×4 prediction or coefficients).
        var filtersInnerEdges = false
    }

    let isSimple: Bool
    /// `[segment][usesSubblocks ? 1 : 0]`.
    private let strengths: [Strength]

    /// The strengths of each segment and prediction kind for this frame (section 9.6 and 15.1).
    init(header: VP8FrameHeader) {
        isSimple = header.usesSimpleFilter
        var strengths: [Strength] = []
        for segment in 0..<4 {
            var base = header.filterLevel
            if header.usesSegments {
                base = header.segmentFilterLevels[segment] + (header.segmentValuesAreAbsolute ? 0 : header.filterLevel)
            }
            for subblocks in 0..<2 {
                var level = base
                if header.usesFilterDeltas {
                    level += header.intraFrameFilterDelta
                    if subblocks == 1 { level += header.subblockModeFilterDelta }
                }
                level = min(max(level, 0), 63)
                var strength = Strength(filtersInnerEdges: subblocks == 1)
                if level > 0 {
                    var interior = level
                    if header.sharpness > 0 {
                        interior >>= header.sharpness > 4 ? 2 : 1
                        interior = min(interior, 9 - header.sharpness)
                    }
                    interior = max(interior, 1)
                    strength.interiorLimit = Int32(interior)
                    strength.limit = Int32(2 * level + interior)
                    strength.hevThreshold = level >= 40 ? 2 : level >= 15 ? 1 : 0
                }
                strengths.append(strength)
            }
        }
        self.strengths = strengths
    }

    /// The strength of a macroblock; `hasCoefficients` turns on its inner edges.
    func strength(segment: Int, usesSubblocks: Bool, hasCoefficients: Bool) -> Strength {
        var strength = strengths[segment * 2 + (usesSubblocks ? 1 : 0)]
        strength.filtersInnerEdges = strength.filtersInnerEdges || hasCoefficients
        return strength
    }

    /// Filters the macroblock at column `x`, row `y` whose luma starts at
    /// `luma` and chroma at `cb` and `cr`.
    ///
    /// Sixteen pixels along an edge are filtered at once, in 16-bit lanes
    /// (as libwebp's SSE2 code does it, 8-bit lanes there). Horizontal edges
    /// load their rows directly; vertical ones are transposed first
    /// (`transpose`), filtered as rows, and transposed back. Cb and Cr are
    /// filtered together: eight Cb pixels in the low half, eight Cr in the high.
    func filterMacroblock(_ strength: Strength, x: Int, y: Int,
                          luma: UnsafeMutablePointer<UInt8>, lumaStride: Int,
                          cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, chromaStride: Int) {
        let limit = strength.limit
        guard limit > 0 else { return }
        let edgeLimit = Lanes(repeating: Int16(truncatingIfNeeded: 2 &* (limit &+ 4) &+ 1))
        let innerLimit = Lanes(repeating: Int16(truncatingIfNeeded: 2 &* limit &+ 1))
        if isSimple {
            if x > 0 {
                var e = Self.loadColumns(luma - 4, stride: lumaStride)
                Self.simpleFilter(&e, limit2: edgeLimit)
                Self.storeColumns(e, luma - 4, stride: lumaStride)
            }
            if strength.filtersInnerEdges {
                for i in 1..<4 {
                    var e = Self.loadColumns(luma + 4 * i - 4, stride: lumaStride)
                    Self.simpleFilter(&e, limit2: innerLimit)
                    Self.storeColumns(e, luma + 4 * i - 4, stride: lumaStride)
                }
            }
            if y > 0 {
                var e = Self.loadRows(luma - 4 * lumaStride, stride: lumaStride)
                Self.simpleFilter(&e, limit2: edgeLimit)
                Self.storeRows(e, luma - 4 * lumaStride, stride: lumaStride)
            }
            if strength.filtersInnerEdges {
                for i in 1..<4 {
                    let p = luma + (4 * i - 4) * lumaStride
                    var e = Self.loadRows(p, stride: lumaStride)
                    Self.simpleFilter(&e, limit2: innerLimit)
                    Self.storeRows(e, p, stride: lumaStride)
                }
            }
            return
        }
        let interior = Lanes(repeating: Int16(truncatingIfNeeded: strength.interiorLimit))
        let hev = Lanes(repeating: Int16(truncatingIfNeeded: strength.hevThreshold))
        if x > 0 {
            var e = Self.loadColumns(luma - 4, stride: lumaStride)
            Self.normalFilter(&e, limit2: edgeLimit, interior: interior, hev: hev, macroblockEdge: true)
            Self.storeColumns(e, luma - 4, stride: lumaStride)
            var c = Self.loadColumns(cb - 4, cr - 4, stride: chromaStride)
            Self.normalFilter(&c, limit2: edgeLimit, interior: interior, hev: hev, macroblockEdge: true)
            Self.storeColumns(c, cb - 4, cr - 4, stride: chromaStride)
        }
        if strength.filtersInnerEdges {
            for i in 1..<4 {
                var e = Self.loadColumns(luma + 4 * i - 4, stride: lumaStride)
                Self.normalFilter(&e, limit2: innerLimit, interior: interior, hev: hev, macroblockEdge: false)
                Self.storeColumns(e, luma + 4 * i - 4, stride: lumaStride)
            }
            var c = Self.loadColumns(cb, cr, stride: chromaStride)
            Self.normalFilter(&c, limit2: innerLimit, interior: interior, hev: hev, macroblockEdge: false)
            Self.storeColumns(c, cb, cr, stride: chromaStride)
        }
        if y > 0 {
            var e = Self.loadRows(luma - 4 * lumaStride, stride: lumaStride)
            Self.normalFilter(&e, limit2: edgeLimit, interior: interior, hev: hev, macroblockEdge: true)
            Self.storeRows(e, luma - 4 * lumaStride, stride: lumaStride)
            var c = Self.loadRows(cb - 4 * chromaStride, cr - 4 * chromaStride, stride: chromaStride)
            Self.normalFilter(&c, limit2: edgeLimit, interior: interior, hev: hev, macroblockEdge: true)
            Self.storeRows(c, cb - 4 * chromaStride, cr - 4 * chromaStride, stride: chromaStride)
        }
        if strength.filtersInnerEdges {
            for i in 1..<4 {
                let p = luma + (4 * i - 4) * lumaStride
                var e = Self.loadRows(p, stride: lumaStride)
                Self.normalFilter(&e, limit2: innerLimit, interior: interior, hev: hev, macroblockEdge: false)
                Self.storeRows(e, p, stride: lumaStride)
            }
            var c = Self.loadRows(cb, cr, stride: chromaStride)
            Self.normalFilter(&c, limit2: innerLimit, interior: interior, hev: hev, macroblockEdge: false)
            Self.storeRows(c, cb, cr, stride: chromaStride)
        }
    }

    // MARK: Sixteen pixels of an edge at once

    typealias Bytes = SIMD16<UInt8>
    /// The filter's arithmetic stays within ±2048, so 16-bit lanes hold it.
    typealias Lanes = SIMD16<Int16>

    /// The eight pixels across an edge, p3 p2 p1 p0 | q0 q1 q2 q3, for
    /// sixteen positions along it (the edge lies between `p0` and `q0`).
    struct Edge {
        var p3, p2, p1, p0, q0, q1, q2, q3: Bytes
    }

    /// A horizontal edge: the eight rows from `p` (the p3 row) down.
    @inline(__always)
    private static func loadRows(_ p: UnsafeMutablePointer<UInt8>, stride: Int) -> Edge {
        let raw = UnsafeRawPointer(p)
        @inline(__always) func row(_ k: Int) -> Bytes { raw.loadUnaligned(fromByteOffset: k &* stride, as: Bytes.self) }
        return Edge(p3: row(0), p2: row(1), p1: row(2), p0: row(3), q0: row(4), q1: row(5), q2: row(6), q3: row(7))
    }

    /// Writes back the six rows the normal filter may change.
    @inline(__always)
    private static func storeRows(_ e: Edge, _ p: UnsafeMutablePointer<UInt8>, stride: Int) {
        let raw = UnsafeMutableRawPointer(p)
        raw.storeBytes(of: e.p2, toByteOffset: stride, as: Bytes.self)
        raw.storeBytes(of: e.p1, toByteOffset: 2 &* stride, as: Bytes.self)
        raw.storeBytes(of: e.p0, toByteOffset: 3 &* stride, as: Bytes.self)
        raw.storeBytes(of: e.q0, toByteOffset: 4 &* stride, as: Bytes.self)
        raw.storeBytes(of: e.q1, toByteOffset: 5 &* stride, as: Bytes.self)
        raw.storeBytes(of: e.q2, toByteOffset: 6 &* stride, as: Bytes.self)
    }

    /// A horizontal chroma edge: eight Cb pixels per row in the low half, Cr in the high.
    @inline(__always)
    private static func loadRows(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride: Int) -> Edge {
        let ru = UnsafeRawPointer(u), rv = UnsafeRawPointer(v)
        @inline(__always) func row(_ k: Int) -> Bytes {
            unsafeBitCast(SIMD2<UInt64>(ru.loadUnaligned(fromByteOffset: k &* stride, as: UInt64.self),
                                        rv.loadUnaligned(fromByteOffset: k &* stride, as: UInt64.self)), to: Bytes.self)
        }
        return Edge(p3: row(0), p2: row(1), p1: row(2), p0: row(3), q0: row(4), q1: row(5), q2: row(6), q3: row(7))
    }

    @inline(__always)
    private static func storeRows(_ e: Edge, _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride: Int) {
        let ru = UnsafeMutableRawPointer(u), rv = UnsafeMutableRawPointer(v)
        @inline(__always) func row(_ k: Int, _ value: Bytes) {
            let words = unsafeBitCast(value, to: SIMD2<UInt64>.self)
            ru.storeBytes(of: words[0], toByteOffset: k &* stride, as: UInt64.self)
            rv.storeBytes(of: words[1], toByteOffset: k &* stride, as: UInt64.self)
        }
        row(1, e.p2); row(2, e.p1); row(3, e.p0); row(4, e.q0); row(5, e.q1); row(6, e.q2)
    }

    /// A vertical luma edge: sixteen rows of the eight columns from `p` (the
    /// p3 column), transposed so each column is one vector.
    @inline(__always)
    private static func loadColumns(_ p: UnsafeMutablePointer<UInt8>, stride: Int) -> Edge {
        let raw = UnsafeRawPointer(p)
        @inline(__always) func rows(_ k: Int) -> SIMD2<UInt64> {
            SIMD2(raw.loadUnaligned(fromByteOffset: k &* stride, as: UInt64.self),
                  raw.loadUnaligned(fromByteOffset: (k &+ 8) &* stride, as: UInt64.self))
        }
        return transpose(rows(0), rows(1), rows(2), rows(3), rows(4), rows(5), rows(6), rows(7))
    }

    @inline(__always)
    private static func storeColumns(_ e: Edge, _ p: UnsafeMutablePointer<UInt8>, stride: Int) {
        let raw = UnsafeMutableRawPointer(p)
        let t = transpose(words(e.p3), words(e.p2), words(e.p1), words(e.p0),
                          words(e.q0), words(e.q1), words(e.q2), words(e.q3))
        @inline(__always) func rows(_ k: Int, _ value: Bytes) {
            let w = words(value)
            raw.storeBytes(of: w[0], toByteOffset: k &* stride, as: UInt64.self)
            raw.storeBytes(of: w[1], toByteOffset: (k &+ 8) &* stride, as: UInt64.self)
        }
        rows(0, t.p3); rows(1, t.p2); rows(2, t.p1); rows(3, t.p0)
        rows(4, t.q0); rows(5, t.q1); rows(6, t.q2); rows(7, t.q3)
    }

    /// A vertical chroma edge: the eight Cb rows in the low halves, Cr in the high.
    @inline(__always)
    private static func loadColumns(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride: Int) -> Edge {
        let ru = UnsafeRawPointer(u), rv = UnsafeRawPointer(v)
        @inline(__always) func rows(_ k: Int) -> SIMD2<UInt64> {
            SIMD2(ru.loadUnaligned(fromByteOffset: k &* stride, as: UInt64.self),
                  rv.loadUnaligned(fromByteOffset: k &* stride, as: UInt64.self))
        }
        return transpose(rows(0), rows(1), rows(2), rows(3), rows(4), rows(5), rows(6), rows(7))
    }

    @inline(__always)
    private static func storeColumns(_ e: Edge, _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>,
                                     stride: Int) {
        let ru = UnsafeMutableRawPointer(u), rv = UnsafeMutableRawPointer(v)
        let t = transpose(words(e.p3), words(e.p2), words(e.p1), words(e.p0),
                          words(e.q0), words(e.q1), words(e.q2), words(e.q3))
        @inline(__always) func rows(_ k: Int, _ value: Bytes) {
            let w = words(value)
            ru.storeBytes(of: w[0], toByteOffset: k &* stride, as: UInt64.self)
            rv.storeBytes(of: w[1], toByteOffset: k &* stride, as: UInt64.self)
        }
        rows(0, t.p3); rows(1, t.p2); rows(2, t.p1); rows(3, t.p0)
        rows(4, t.q0); rows(5, t.q1); rows(6, t.q2); rows(7, t.q3)
    }

    @inline(__always)
    private static func words(_ v: Bytes) -> SIMD2<UInt64> { unsafeBitCast(v, to: SIMD2<UInt64>.self) }

    /// Transposes two 8×8 byte matrices at once (one per 64-bit half; row
    /// `k` in `a_k`, column `j` in byte `j`) by swapping ever larger
    /// sub-blocks across the diagonal: bytes, then pairs, then quads.
    @inline(__always)
    private static func transpose(_ a0: SIMD2<UInt64>, _ a1: SIMD2<UInt64>, _ a2: SIMD2<UInt64>, _ a3: SIMD2<UInt64>,
                                  _ a4: SIMD2<UInt64>, _ a5: SIMD2<UInt64>, _ a6: SIMD2<UInt64>, _ a7: SIMD2<UInt64>) -> Edge {
        var (a0, a1, a2, a3, a4, a5, a6, a7) = (a0, a1, a2, a3, a4, a5, a6, a7)
        @inline(__always) func swap(_ a: inout SIMD2<UInt64>, _ b: inout SIMD2<UInt64>, _ shift: UInt64, _ mask: UInt64) {
            let t = ((a &>> shift) ^ b) & SIMD2(repeating: mask)
            b ^= t
            a ^= t &<< shift
        }
        let bytes: UInt64 = 0x00FF_00FF_00FF_00FF, pairs: UInt64 = 0x0000_FFFF_0000_FFFF, quads: UInt64 = 0x0000_0000_FFFF_FFFF
        swap(&a0, &a1, 8, bytes); swap(&a2, &a3, 8, bytes); swap(&a4, &a5, 8, bytes); swap(&a6, &a7, 8, bytes)
        swap(&a0, &a2, 16, pairs); swap(&a1, &a3, 16, pairs); swap(&a4, &a6, 16, pairs); swap(&a5, &a7, 16, pairs)
        swap(&a0, &a4, 32, quads); swap(&a1, &a5, 32, quads); swap(&a2, &a6, 32, quads); swap(&a3, &a7, 32, quads)
        @inline(__always) func b(_ w: SIMD2<UInt64>) -> Bytes { unsafeBitCast(w, to: Bytes.self) }
        return Edge(p3: b(a0), p2: b(a1), p1: b(a2), p0: b(a3), q0: b(a4), q1: b(a5), q2: b(a6), q3: b(a7))
    }

    // MARK: The arithmetic, lane by lane as RFC 6386 section 15 writes it per pixel.
    // Masks are lanes of all ones (true) or zeros, made with sign shifts; the
    // generic SIMD comparisons, min/max and widening are not specialised well
    // on this toolchain (see JPEGColorConverter).

    /// Sixteen bytes widened to 16-bit lanes. The lane order (even bytes,
    /// then odd) does not matter to a lane-wise filter; `narrow` undoes it.
    @inline(__always)
    private static func widen(_ v: Bytes) -> Lanes {
        let w = unsafeBitCast(v, to: SIMD8<UInt16>.self)
        return Lanes(lowHalf: unsafeBitCast(w & 0x00FF, to: SIMD8<Int16>.self),
                     highHalf: unsafeBitCast(w &>> 8, to: SIMD8<Int16>.self))
    }

    /// Lanes clamped to 0...255, back to bytes in their original order.
    @inline(__always)
    private static func narrow(_ v: Lanes) -> Bytes {
        let c = clamp(v, 0, 255)
        let even = unsafeBitCast(c.lowHalf, to: SIMD8<UInt16>.self)
        let odd = unsafeBitCast(c.highHalf, to: SIMD8<UInt16>.self)
        return unsafeBitCast(even | (odd &<< 8), to: Bytes.self)
    }

    /// All ones where `a < b` (both within ±16384).
    @inline(__always)
    private static func less(_ a: Lanes, _ b: Lanes) -> Lanes { (a &- b) &>> 15 }

    @inline(__always)
    private static func select(_ mask: Lanes, _ a: Lanes, _ b: Lanes) -> Lanes { (a & mask) | (b & ~mask) }

    @inline(__always)
    private static func clamp(_ v: Lanes, _ low: Int16, _ high: Int16) -> Lanes {
        let lo = Lanes(repeating: low), hi = Lanes(repeating: high)
        let raised = select(less(v, lo), lo, v)
        return select(less(hi, raised), hi, raised)
    }

    @inline(__always)
    private static func absolute(_ v: Lanes) -> Lanes {
        let sign = v &>> 15
        return (v ^ sign) &- sign
    }

    /// The edge test of both filters: 2·|p0 − q0| + |p1 − q1| / 2 ≤ limit,
    /// as 4·|p0 − q0| + |p1 − q1| < 2·limit + 2 (the same, without the halving;
    /// `limit2` is 2·limit + 1). All ones where the edge is filtered.
    @inline(__always)
    private static func edgeMask(_ p1: Lanes, _ p0: Lanes, _ q0: Lanes, _ q1: Lanes, limit2: Lanes) -> Lanes {
        less(4 &* absolute(p0 &- q0) &+ absolute(p1 &- q1), limit2 &+ 1)
    }

    /// The simple filter (section 15.2): p0 and q0 move towards each other.
    @inline(__always)
    private static func simpleFilter(_ e: inout Edge, limit2: Lanes) {
        let p1 = widen(e.p1), p0 = widen(e.p0), q0 = widen(e.q0), q1 = widen(e.q1)
        let mask = edgeMask(p1, p0, q0, q1, limit2: limit2)
        let (newP0, newQ0) = adjustTwo(p1, p0, q0, q1)
        e.p0 = narrow(select(mask, newP0, p0))
        e.q0 = narrow(select(mask, newQ0, q0))
    }

    /// common_adjust with the outer taps: the new p0 and q0 (unclamped).
    @inline(__always)
    private static func adjustTwo(_ p1: Lanes, _ p0: Lanes, _ q0: Lanes, _ q1: Lanes) -> (Lanes, Lanes) {
        let a = 3 &* (q0 &- p0) &+ clamp(p1 &- q1, -128, 127)
        let a1 = clamp((a &+ 4) &>> 3, -16, 15)
        let a2 = clamp((a &+ 3) &>> 3, -16, 15)
        return (p0 &+ a2, q0 &- a1)
    }

    /// The normal filter (section 15.3) of a macroblock edge (up to three
    /// pixels each side change) or an inner edge (up to two).
    @inline(__always)
    private static func normalFilter(_ e: inout Edge, limit2: Lanes, interior: Lanes, hev: Lanes, macroblockEdge: Bool) {
        let p3 = widen(e.p3), p2 = widen(e.p2), p1 = widen(e.p1), p0 = widen(e.p0)
        let q0 = widen(e.q0), q1 = widen(e.q1), q2 = widen(e.q2), q3 = widen(e.q3)
        // Filtered where the edge test passes and every interior step is ≤ interior.
        var steps = pointwiseMaximum(absolute(p3 &- p2), absolute(p2 &- p1))
        steps = pointwiseMaximum(steps, absolute(p1 &- p0))
        steps = pointwiseMaximum(steps, absolute(q3 &- q2))
        steps = pointwiseMaximum(steps, absolute(q2 &- q1))
        steps = pointwiseMaximum(steps, absolute(q1 &- q0))
        let mask = edgeMask(p1, p0, q0, q1, limit2: limit2) & ~less(interior, steps)
        // High edge variance: only p0 and q0 change, as in the simple filter.
        let highVariance = less(hev, pointwiseMaximum(absolute(p1 &- p0), absolute(q1 &- q0)))
        let (twoP0, twoQ0) = adjustTwo(p1, p0, q0, q1)
        let onlyTwo = mask & highVariance, more = mask & ~highVariance
        if macroblockEdge {
            // Three taps each side, weighted 27, 18 and 9.
            let a = clamp(3 &* (q0 &- p0) &+ clamp(p1 &- q1, -128, 127), -128, 127)
            let a1 = (27 &* a &+ 63) &>> 7
            let a2 = (18 &* a &+ 63) &>> 7
            let a3 = (9 &* a &+ 63) &>> 7
            e.p2 = narrow(select(more, p2 &+ a3, p2))
            e.p1 = narrow(select(more, p1 &+ a2, p1))
            e.p0 = narrow(select(onlyTwo, twoP0, select(more, p0 &+ a1, p0)))
            e.q0 = narrow(select(onlyTwo, twoQ0, select(more, q0 &- a1, q0)))
            e.q1 = narrow(select(more, q1 &- a2, q1))
            e.q2 = narrow(select(more, q2 &- a3, q2))
        } else {
            // No outer taps; p1 and q1 move by half as much (subblock_filter).
            let a = 3 &* (q0 &- p0)
            let a1 = clamp((a &+ 4) &>> 3, -16, 15)
            let a2 = clamp((a &+ 3) &>> 3, -16, 15)
            let a3 = (a1 &+ 1) &>> 1
            e.p1 = narrow(select(more, p1 &+ a3, p1))
            e.p0 = narrow(select(onlyTwo, twoP0, select(more, p0 &+ a2, p0)))
            e.q0 = narrow(select(onlyTwo, twoQ0, select(more, q0 &- a1, q0)))
            e.q1 = narrow(select(more, q1 &- a3, q1))
        }
    }

    /// The larger of each pair of lanes (arithmetic select, see above).
    @inline(__always)
    private static func pointwiseMaximum(_ a: Lanes, _ b: Lanes) -> Lanes { select(less(a, b), b, a) }
}
