extension TrueTypeFont {
    /// One outline point in font units (y up), on the curve or a quadratic control point.
    public struct OutlinePoint: Equatable, Sendable {
        /// Font units right of the glyph origin.
        public var x: Double
        /// Font units above the baseline.
        public var y: Double
        /// Whether the curve passes through the point (else it is a control point).
        public var onCurve: Bool
    }

    /// The contours of `glyph` in font units, composite glyphs resolved into
    /// their components' transformed contours. Empty for a glyph with no
    /// outline (a space). Throws `TrueTypeError` for damaged outline data.
    public func outline(ofGlyph glyph: Int) throws -> [[OutlinePoint]] {
        var contours: [[OutlinePoint]] = []
        var pointCount = 0
        try appendOutline(ofGlyph: glyph, transform: (1, 0, 0, 1, 0, 0), depth: 0, to: &contours, pointCount: &pointCount)
        return contours
    }

    /// `glyph`'s outline as a path in pixels, `size` pixels to the em, its origin
    /// (left end of the baseline) at `origin`, y growing downwards.
    public func path(ofGlyph glyph: Int, size: Double, origin: Point) throws -> Path {
        let s = size / Double(unitsPerEm)
        var path = Path()
        for contour in try outline(ofGlyph: glyph) {
            let points = contour.map { Point(origin.x + $0.x * s, origin.y - $0.y * s) }
            Self.appendQuadraticContour(points, onCurve: contour.map(\.onCurve), to: &path)
        }
        return path
    }

    /// A closed TrueType contour as lines and quadratic curves: two control
    /// points in a row imply an on-curve point halfway between them.
    static func appendQuadraticContour(_ points: [Point], onCurve: [Bool], to path: inout Path) {
        let n = points.count
        guard n >= 2 else { return }
        func midpoint(_ a: Point, _ b: Point) -> Point { Point((a.x + b.x) / 2, (a.y + b.y) / 2) }
        // Start on an on-curve point (or, if there is none, between the first two controls).
        let first = onCurve.firstIndex(of: true)
        let start = first.map { points[$0] } ?? midpoint(points[0], points[1])
        let offset = first ?? 0
        path.move(to: start)
        var control: Point?
        for k in 1...n {
            let i = (offset + k) % n
            let p = points[i]
            if onCurve[i] {
                if let c = control { path.quad(to: p, control: c) } else { path.line(to: p) }
                control = nil
            } else {
                if let c = control { path.quad(to: midpoint(c, p), control: c) }
                control = p
            }
        }
        if let c = control { path.quad(to: start, control: c) }
        path.close()
    }

    private typealias Transform = (xx: Double, yx: Double, xy: Double, yy: Double, dx: Double, dy: Double)

    private func appendOutline(ofGlyph glyph: Int, transform t: Transform, depth: Int,
                               to contours: inout [[OutlinePoint]], pointCount: inout Int) throws {
        guard depth <= Self.maximumCompositeDepth else {
            throw TrueTypeError.malformed("composite glyphs nest deeper than \(Self.maximumCompositeDepth)")
        }
        guard glyph >= 0, glyph < glyphCount else { throw TrueTypeError.malformed("glyph \(glyph) does not exist") }
        let range = outlineRange(ofGlyph: glyph)
        guard range.count >= 10 else { return }  // no outline
        let r = reader, base = range.lowerBound, context = "glyph \(glyph)"
        // Reads past this glyph's own bytes are errors too, not another glyph's data.
        func within(_ offset: Int, _ size: Int) throws -> Int {
            guard offset + size <= range.upperBound else { throw TrueTypeError.truncated(context) }
            return offset
        }
        let contourCount = try r.i16(base, context)
        if contourCount >= 0 {
            var ends: [Int] = []
            for i in 0..<contourCount {
                let end = try r.u16(try within(base + 10 + 2 * i, 2), context)
                guard end >= (ends.last.map { $0 + 1 } ?? 0) else { throw TrueTypeError.malformed("\(context): contour ends out of order") }
                ends.append(end)
            }
            let count = (ends.last ?? -1) + 1
            pointCount += count
            guard pointCount <= Self.maximumPoints else { throw TrueTypeError.malformed("\(context) has more than \(Self.maximumPoints) points") }
            let instructionLength = try r.u16(try within(base + 10 + 2 * contourCount, 2), context)
            var cursor = base + 12 + 2 * contourCount + instructionLength
            var flags = [UInt8](repeating: 0, count: count)
            var i = 0
            while i < count {
                let flag = UInt8(try r.u8(try within(cursor, 1), context))
                cursor += 1
                var repeats = 1
                if flag & 8 != 0 {
                    repeats += try r.u8(try within(cursor, 1), context)
                    cursor += 1
                }
                for _ in 0..<repeats where i < count {
                    flags[i] = flag
                    i += 1
                }
            }
            func coordinates(short: UInt8, same: UInt8) throws -> [Int] {
                var values = [Int](repeating: 0, count: count), value = 0
                for i in 0..<count {
                    let flag = flags[i]
                    if flag & short != 0 {
                        let delta = try r.u8(try within(cursor, 1), context)
                        cursor += 1
                        value += flag & same != 0 ? delta : -delta
                    } else if flag & same == 0 {
                        value += try r.i16(try within(cursor, 2), context)
                        cursor += 2
                    }
                    values[i] = value
                }
                return values
            }
            let xs = try coordinates(short: 2, same: 16), ys = try coordinates(short: 4, same: 32)
            var start = 0
            for end in ends {
                contours.append((start...end).map { i in
                    let x = Double(xs[i]), y = Double(ys[i])
                    return OutlinePoint(x: t.xx * x + t.xy * y + t.dx, y: t.yx * x + t.yy * y + t.dy, onCurve: flags[i] & 1 != 0)
                })
                start = end + 1
            }
        } else {
            var cursor = base + 10
            while true {
                let flags = try r.u16(try within(cursor, 4), context), component = try r.u16(cursor + 2, context)
                cursor += 4
                let dx: Double, dy: Double
                if flags & 1 != 0 {  // ARG_1_AND_2_ARE_WORDS
                    dx = Double(try r.i16(try within(cursor, 4), context)); dy = Double(try r.i16(cursor + 2, context))
                    cursor += 4
                } else {
                    dx = Double(Int8(truncatingIfNeeded: try r.u8(try within(cursor, 2), context)))
                    dy = Double(Int8(truncatingIfNeeded: try r.u8(cursor + 1, context)))
                    cursor += 2
                }
                // Each component counts as a point, so a tree of empty components cannot run without bound.
                pointCount += 1
                guard pointCount <= Self.maximumPoints else { throw TrueTypeError.malformed("\(context) has more than \(Self.maximumPoints) points or components") }
                var c: Transform = (1, 0, 0, 1, 0, 0)
                if flags & 0x08 != 0 {  // WE_HAVE_A_SCALE
                    let s = try r.f2dot14(try within(cursor, 2), context)
                    c.xx = s; c.yy = s
                    cursor += 2
                } else if flags & 0x40 != 0 {  // WE_HAVE_AN_X_AND_Y_SCALE
                    c.xx = try r.f2dot14(try within(cursor, 4), context); c.yy = try r.f2dot14(cursor + 2, context)
                    cursor += 4
                } else if flags & 0x80 != 0 {  // WE_HAVE_A_TWO_BY_TWO
                    c.xx = try r.f2dot14(try within(cursor, 8), context); c.yx = try r.f2dot14(cursor + 2, context)
                    c.xy = try r.f2dot14(cursor + 4, context); c.yy = try r.f2dot14(cursor + 6, context)
                    cursor += 8
                }
                // ARGS_ARE_XY_VALUES; matched points (the alternative, rare in practice) are placed unshifted.
                if flags & 2 != 0 { c.dx = dx; c.dy = dy }
                // The component's transform, then this glyph's.
                let combined: Transform = (t.xx * c.xx + t.xy * c.yx, t.yx * c.xx + t.yy * c.yx,
                                           t.xx * c.xy + t.xy * c.yy, t.yx * c.xy + t.yy * c.yy,
                                           t.xx * c.dx + t.xy * c.dy + t.dx, t.yx * c.dx + t.yy * c.dy + t.dy)
                try appendOutline(ofGlyph: component, transform: combined, depth: depth + 1, to: &contours, pointCount: &pointCount)
                guard flags & 0x20 != 0 else { break }  // MORE_COMPONENTS
            }
        }
    }
}
