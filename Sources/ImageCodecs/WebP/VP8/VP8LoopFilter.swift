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
    func filterMacroblock(_ strength: Strength, x: Int, y: Int,
                          luma: UnsafeMutablePointer<UInt8>, lumaStride: Int,
                          cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, chromaStride: Int) {
        let limit = strength.limit
        guard limit > 0 else { return }
        if isSimple {
            if x > 0 { Self.simpleEdge(luma, across: 1, along: lumaStride, limit: limit + 4) }
            if strength.filtersInnerEdges {
                for i in 1..<4 { Self.simpleEdge(luma + 4 * i, across: 1, along: lumaStride, limit: limit) }
            }
            if y > 0 { Self.simpleEdge(luma, across: lumaStride, along: 1, limit: limit + 4) }
            if strength.filtersInnerEdges {
                for i in 1..<4 { Self.simpleEdge(luma + 4 * i * lumaStride, across: lumaStride, along: 1, limit: limit) }
            }
            return
        }
        let interior = strength.interiorLimit, hev = strength.hevThreshold
        if x > 0 {
            Self.macroblockEdge(luma, across: 1, along: lumaStride, count: 16, limit: limit + 4, interior: interior, hev: hev)
            Self.macroblockEdge(cb, across: 1, along: chromaStride, count: 8, limit: limit + 4, interior: interior, hev: hev)
            Self.macroblockEdge(cr, across: 1, along: chromaStride, count: 8, limit: limit + 4, interior: interior, hev: hev)
        }
        if strength.filtersInnerEdges {
            for i in 1..<4 {
                Self.innerEdge(luma + 4 * i, across: 1, along: lumaStride, count: 16, limit: limit, interior: interior, hev: hev)
            }
            Self.innerEdge(cb + 4, across: 1, along: chromaStride, count: 8, limit: limit, interior: interior, hev: hev)
            Self.innerEdge(cr + 4, across: 1, along: chromaStride, count: 8, limit: limit, interior: interior, hev: hev)
        }
        if y > 0 {
            Self.macroblockEdge(luma, across: lumaStride, along: 1, count: 16, limit: limit + 4, interior: interior, hev: hev)
            Self.macroblockEdge(cb, across: chromaStride, along: 1, count: 8, limit: limit + 4, interior: interior, hev: hev)
            Self.macroblockEdge(cr, across: chromaStride, along: 1, count: 8, limit: limit + 4, interior: interior, hev: hev)
        }
        if strength.filtersInnerEdges {
            for i in 1..<4 {
                Self.innerEdge(luma + 4 * i * lumaStride, across: lumaStride, along: 1, count: 16,
                               limit: limit, interior: interior, hev: hev)
            }
            Self.innerEdge(cb + 4 * chromaStride, across: chromaStride, along: 1, count: 8, limit: limit, interior: interior, hev: hev)
            Self.innerEdge(cr + 4 * chromaStride, across: chromaStride, along: 1, count: 8, limit: limit, interior: interior, hev: hev)
        }
    }

    // MARK: The filters of one edge. `p` is the first pixel past the edge;
    // `across` steps over the edge, `along` to the next pixel on it.

    @inline(__always)
    private static func absolute(_ v: Int32) -> Int32 { v < 0 ? 0 &- v : v }
    @inline(__always)
    private static func clamp128(_ v: Int32) -> Int32 { v < -128 ? -128 : v > 127 ? 127 : v }
    @inline(__always)
    private static func clamp16(_ v: Int32) -> Int32 { v < -16 ? -16 : v > 15 ? 15 : v }
    @inline(__always)
    private static func pixel(_ v: Int32) -> UInt8 { UInt8(truncatingIfNeeded: v < 0 ? 0 : v > 255 ? 255 : v) }

    /// The edge test of both filters: 2·|p0 − q0| + |p1 − q1| / 2 ≤ limit,
    /// as 4·|p0 − q0| + |p1 − q1| ≤ 2·limit + 1 (the same, without the halving).
    @inline(__always)
    private static func edgeVaries(_ p1: Int32, _ p0: Int32, _ q0: Int32, _ q1: Int32, limit2: Int32) -> Bool {
        4 &* absolute(p0 &- q0) &+ absolute(p1 &- q1) > limit2
    }

    /// Moves p0 and q0 towards each other, using the outer taps (section 15.2, common_adjust).
    @inline(__always)
    private static func adjustTwo(_ p: UnsafeMutablePointer<UInt8>, _ step: Int, _ p1: Int32, _ p0: Int32, _ q0: Int32, _ q1: Int32) {
        let a = 3 &* (q0 &- p0) &+ clamp128(p1 &- q1)
        let a1 = clamp16((a &+ 4) &>> 3)
        let a2 = clamp16((a &+ 3) &>> 3)
        p[-step] = pixel(p0 &+ a2)
        p[0] = pixel(q0 &- a1)
    }

    private static func simpleEdge(_ p: UnsafeMutablePointer<UInt8>, across step: Int, along: Int, limit: Int32) {
        let limit2 = 2 &* limit &+ 1
        for i in 0..<16 {
            let q = p + i &* along
            let p1 = Int32(q[-2 &* step]), p0 = Int32(q[-step]), q0 = Int32(q[0]), q1 = Int32(q[step])
            if !edgeVaries(p1, p0, q0, q1, limit2: limit2) { adjustTwo(q, step, p1, p0, q0, q1) }
        }
    }

    /// Whether the normal filter applies: the edge test and the interior
    /// differences all within `interior`.
    @inline(__always)
    private static func normalFilterApplies(_ q: UnsafeMutablePointer<UInt8>, _ step: Int, limit2: Int32, interior: Int32) -> Bool {
        let p3 = Int32(q[-4 &* step]), p2 = Int32(q[-3 &* step]), p1 = Int32(q[-2 &* step]), p0 = Int32(q[-step])
        let q0 = Int32(q[0]), q1 = Int32(q[step]), q2 = Int32(q[2 &* step]), q3 = Int32(q[3 &* step])
        if edgeVaries(p1, p0, q0, q1, limit2: limit2) { return false }
        return absolute(p3 &- p2) <= interior && absolute(p2 &- p1) <= interior && absolute(p1 &- p0) <= interior
            && absolute(q3 &- q2) <= interior && absolute(q2 &- q1) <= interior && absolute(q1 &- q0) <= interior
    }

    /// High edge variance: then only p0 and q0 change.
    @inline(__always)
    private static func highVariance(_ p1: Int32, _ p0: Int32, _ q0: Int32, _ q1: Int32, _ threshold: Int32) -> Bool {
        absolute(p1 &- p0) > threshold || absolute(q1 &- q0) > threshold
    }

    private static func macroblockEdge(_ p: UnsafeMutablePointer<UInt8>, across step: Int, along: Int, count: Int,
                                       limit: Int32, interior: Int32, hev: Int32) {
        let limit2 = 2 &* limit &+ 1
        for i in 0..<count {
            let q = p + i &* along
            guard normalFilterApplies(q, step, limit2: limit2, interior: interior) else { continue }
            let p2 = Int32(q[-3 &* step]), p1 = Int32(q[-2 &* step]), p0 = Int32(q[-step])
            let q0 = Int32(q[0]), q1 = Int32(q[step]), q2 = Int32(q[2 &* step])
            if highVariance(p1, p0, q0, q1, hev) {
                adjustTwo(q, step, p1, p0, q0, q1)
            } else {
                // Three taps each side, weighted 27, 18 and 9 (section 15.3).
                let a = clamp128(3 &* (q0 &- p0) &+ clamp128(p1 &- q1))
                let a1 = (27 &* a &+ 63) &>> 7
                let a2 = (18 &* a &+ 63) &>> 7
                let a3 = (9 &* a &+ 63) &>> 7
                q[-3 &* step] = pixel(p2 &+ a3)
                q[-2 &* step] = pixel(p1 &+ a2)
                q[-step] = pixel(p0 &+ a1)
                q[0] = pixel(q0 &- a1)
                q[step] = pixel(q1 &- a2)
                q[2 &* step] = pixel(q2 &- a3)
            }
        }
    }

    private static func innerEdge(_ p: UnsafeMutablePointer<UInt8>, across step: Int, along: Int, count: Int,
                                  limit: Int32, interior: Int32, hev: Int32) {
        let limit2 = 2 &* limit &+ 1
        for i in 0..<count {
            let q = p + i &* along
            guard normalFilterApplies(q, step, limit2: limit2, interior: interior) else { continue }
            let p1 = Int32(q[-2 &* step]), p0 = Int32(q[-step]), q0 = Int32(q[0]), q1 = Int32(q[step])
            if highVariance(p1, p0, q0, q1, hev) {
                adjustTwo(q, step, p1, p0, q0, q1)
            } else {
                // No outer taps; p1 and q1 move by half as much (section 15.3, subblock_filter).
                let a = 3 &* (q0 &- p0)
                let a1 = clamp16((a &+ 4) &>> 3)
                let a2 = clamp16((a &+ 3) &>> 3)
                let a3 = (a1 &+ 1) &>> 1
                q[-2 &* step] = pixel(p1 &+ a3)
                q[-step] = pixel(p0 &+ a2)
                q[0] = pixel(q0 &- a1)
                q[step] = pixel(q1 &- a3)
            }
        }
    }
}
