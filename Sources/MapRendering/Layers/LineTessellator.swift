import Raster

/// A line cut into triangles as MapLibre's line bucket cuts it
/// (maplibre-native's `PolylineGenerator`): a pair of vertices either side of
/// each point, extruded along the join's normal; miter, bevel (a pie slice),
/// round (pie slices fanned, or a round cap's vertices) joins and butt, square,
/// round caps, switching as MapLibre switches them by the miter length.
///
/// A vertex keeps what MapLibre's vertex buffer keeps (its point, the extrude
/// direction quantised to 1/63 as the buffer's bytes hold it, whether it is a
/// round cap's, which side it is on, and a cap's direction); ``LineFeather``
/// turns it into pixels for a width, gap, offset and blur, as the shader does.
struct LineTessellator {
    /// One vertex of the buffer.
    struct Vertex: Equatable {
        /// The line's point, in pixels.
        var point: Point
        /// The extrude direction, a unit normal stretched up to 2 at joins (in quantised steps of 1/63).
        var extrudeX: Double, extrudeY: Double
        /// Whether it is a round cap's or round join's outer vertex (its normal's x is 1 in the shader).
        var round: Bool
        /// Which side of the line: the shader's normal's y is 1 when up, −1 otherwise.
        var up: Bool
        /// −1, 0 or 1: a cap vertex's direction along the line (how the shader turns `line-offset` there).
        var direction: Int8
        /// How far along the line it is, in pixels (`linesofar`, where dashes are read).
        var distance: Double
    }

    private(set) var vertices: [Vertex] = []
    /// Three vertex indices per triangle.
    private(set) var triangles: [Int32] = []
    /// How far along the current line the generator is.
    private var distance = 0.0
    // The last three vertices added (−1: none), as the generator keeps them to make strips.
    private var e1 = -1, e2 = -1, e3 = -1

    /// MapLibre's miter limit of a bevel join: joins sharper than nothing are bevelled.
    static let bevelMiterLimit = 1.05
    /// `line-round-limit`'s default: round joins flatter than this are mitred.
    static let roundLimit = 1.05
    /// The angle each pie slice of a round join spans.
    static let degreesPerTriangle = 20.0

    /// How sharp a corner is (the cosine of half its turn, 75°) before extra
    /// vertices are put either side of it, so a dash tilts only near it (the
    /// distance along the line is the same at a corner's inner and outer side).
    static let cosineHalfSharpCorner = 0.7933533402912352

    /// Adds the triangles of one line (`closed`: a polygon's ring, joined where
    /// it closes); `sharpCornerOffset` pixels either side of a sharp corner get
    /// a vertex of their own (0: none), as MapLibre's 15 pixels of the tile's zoom.
    mutating func add(_ points: [Point], closed: Bool, join: StyleLineJoin, cap: StyleLineCap, miterLimit: Double,
                      sharpCornerOffset: Double = 0) {
        var coordinates = points
        if closed, let first = coordinates.first, coordinates.last != first { coordinates.append(first) }
        var length = coordinates.count
        while length >= 2, coordinates[length - 1] == coordinates[length - 2] { length -= 1 }
        var first = 0
        while first < length - 1, coordinates[first] == coordinates[first + 1] { first += 1 }
        guard length >= (closed ? 3 : 2) else { return }
        let miterLimit = join == .bevel ? Self.bevelMiterLimit : miterLimit
        let beginCap = cap, endCap: StyleLineCap = closed ? .butt : cap

        var startOfLine = true
        distance = 0
        var current: Point?
        var previous: Point?
        var next: Point?
        var previousNormal: Point?
        var nextNormal: Point?
        e1 = -1; e2 = -1; e3 = -1
        if closed {
            current = coordinates[length - 2]
            nextNormal = Self.perp(Self.unit(coordinates[first] - coordinates[length - 2]))
        }
        for i in first..<length {
            if closed, i == length - 1 {
                next = coordinates[first + 1]
            } else if i + 1 < length {
                next = coordinates[i + 1]
            } else {
                next = nil
            }
            if let next, coordinates[i] == next { continue }
            if let nextNormal { previousNormal = nextNormal }
            if let current { previous = current }
            current = coordinates[i]
            var point = coordinates[i]
            nextNormal = next.map { Self.perp(Self.unit($0 - point)) } ?? previousNormal
            let prevNormal = previousNormal ?? nextNormal!
            previousNormal = prevNormal
            let nextN = nextNormal!

            // The join's normal bisects the two segments' normals ((0, 0) for a full turn back).
            var joinNormal = prevNormal + nextN
            if joinNormal.x != 0 || joinNormal.y != 0 { joinNormal = Self.unit(joinNormal) }
            let cosAngle = prevNormal.x * nextN.x + prevNormal.y * nextN.y
            let cosHalfAngle = joinNormal.x * nextN.x + joinNormal.y * nextN.y
            let miterLength = cosHalfAngle != 0 ? 1 / cosHalfAngle : .infinity
            let approximateAngle = 2 * (2 - 2 * cosHalfAngle).squareRoot()

            let sharpCorner = sharpCornerOffset > 0 && cosHalfAngle < Self.cosineHalfSharpCorner && previous != nil && next != nil
            if sharpCorner, i > first, let before = previous {
                let segment = Self.magnitude(point - before)
                if segment > 2 * sharpCornerOffset {
                    let newPrevious = point - (point - before) * (sharpCornerOffset / segment)
                    distance += Self.magnitude(newPrevious - before)
                    addCurrentVertex(newPrevious, normal: prevNormal, endLeft: 0, endRight: 0, round: false)
                    previous = newPrevious
                }
            }

            let middle = previous != nil && next != nil
            var currentJoin = join
            let currentCap = next != nil ? beginCap : endCap
            /// A join drawn as MapLibre switches it: flat round joins mitred, sharp miters bevelled.
            enum Kind { case miter, bevel, flipBevel, fakeRound, round }
            var kind: Kind = currentJoin == .round ? .round : currentJoin == .bevel ? .bevel : .miter
            if middle {
                if currentJoin == .round {
                    if miterLength < Self.roundLimit { kind = .miter } else if miterLength <= 2 { kind = .fakeRound }
                }
                if kind == .miter, miterLength > miterLimit { kind = .bevel; currentJoin = .bevel }
                if kind == .bevel {
                    if miterLength > 2 { kind = .flipBevel }
                    if miterLength < miterLimit { kind = .miter }
                }
            }

            if let previous { distance += Self.magnitude(point - previous) }

            if middle, kind == .miter {
                addCurrentVertex(point, normal: joinNormal * miterLength, endLeft: 0, endRight: 0, round: false)
            } else if middle, kind == .flipBevel {
                // The miter is too long: flip the direction to make a bevelled join.
                if miterLength > 100 {
                    joinNormal = nextN * -1
                } else {
                    let direction: Double = prevNormal.x * nextN.y - prevNormal.y * nextN.x > 0 ? -1 : 1
                    let bevelLength = miterLength * Self.magnitude(prevNormal + nextN) / Self.magnitude(prevNormal - nextN)
                    joinNormal = Self.perp(joinNormal) * (bevelLength * direction)
                }
                addCurrentVertex(point, normal: joinNormal, endLeft: 0, endRight: 0, round: false)
                addCurrentVertex(point, normal: joinNormal * -1, endLeft: 0, endRight: 0, round: false)
            } else if middle, kind == .bevel || kind == .fakeRound {
                let turnsLeft = prevNormal.x * nextN.y - prevNormal.y * nextN.x > 0
                let offset = -(miterLength * miterLength - 1).squareRoot()
                let (offsetA, offsetB) = turnsLeft ? (offset, 0.0) : (0.0, offset)
                if !startOfLine {
                    addCurrentVertex(point, normal: prevNormal, endLeft: offsetA, endRight: offsetB, round: false)
                }
                if kind == .fakeRound {
                    // Pie slices about every 20°, spread by an approximate spherical interpolation.
                    let n = Int((approximateAngle * 180 / .pi / Self.degreesPerTriangle).rounded())
                    for m in stride(from: 1, to: max(1, n), by: 1) {
                        var t = Double(m) / Double(n)
                        if t != 0.5 {
                            let t2 = t - 0.5
                            let a = 1.0904 + cosAngle * (-3.2452 + cosAngle * (3.55645 - cosAngle * 1.43519))
                            let b = 0.848013 + cosAngle * (-1.06021 + cosAngle * 0.215638)
                            t += t * t2 * (t - 1) * (a * t2 * t2 + b)
                        }
                        addPieSliceVertex(point, extrude: Self.unit(prevNormal * (1 - t) + nextN * t), turnsLeft: turnsLeft)
                    }
                }
                if next != nil {
                    addCurrentVertex(point, normal: nextN, endLeft: -offsetA, endRight: -offsetB, round: false)
                }
            } else if !middle, currentCap == .butt {
                if !startOfLine { addCurrentVertex(point, normal: prevNormal, endLeft: 0, endRight: 0, round: false) }
                if next != nil { addCurrentVertex(point, normal: nextN, endLeft: 0, endRight: 0, round: false) }
            } else if !middle, currentCap == .square {
                if !startOfLine {
                    addCurrentVertex(point, normal: prevNormal, endLeft: 1, endRight: 1, round: false)
                    e1 = -1; e2 = -1
                }
                if next != nil { addCurrentVertex(point, normal: nextN, endLeft: -1, endRight: -1, round: false) }
            } else if middle ? kind == .round : currentCap == .round {
                if !startOfLine {
                    addCurrentVertex(point, normal: prevNormal, endLeft: 0, endRight: 0, round: false)
                    addCurrentVertex(point, normal: prevNormal, endLeft: 1, endRight: 1, round: true)
                    e1 = -1; e2 = -1
                }
                if next != nil {
                    addCurrentVertex(point, normal: nextN, endLeft: -1, endRight: -1, round: true)
                    addCurrentVertex(point, normal: nextN, endLeft: 0, endRight: 0, round: false)
                }
            }
            if sharpCorner, i < length - 1, let after = next {
                let segment = Self.magnitude(after - point)
                if segment > 2 * sharpCornerOffset {
                    let newCurrent = point + (after - point) * (sharpCornerOffset / segment)
                    distance += Self.magnitude(newCurrent - point)
                    addCurrentVertex(newCurrent, normal: nextN, endLeft: 0, endRight: 0, round: false)
                    point = newCurrent
                    current = newCurrent
                }
            }
            startOfLine = false
        }
    }

    /// The pair of vertices either side of `point` (the left one extruded
    /// along `normal`, pushed `endLeft` widths along the line; the right one
    /// against it), each closing a triangle with the two before.
    private mutating func addCurrentVertex(_ point: Point, normal: Point, endLeft: Double, endRight: Double, round: Bool) {
        var extrude = normal
        if endLeft != 0 { extrude = extrude - Self.perp(normal) * endLeft }
        addVertex(Vertex(point: point, extrude: extrude, round: round, up: false, direction: Self.sign(endLeft), distance: distance))
        extrude = normal * -1
        if endRight != 0 { extrude = extrude - Self.perp(normal) * endRight }
        addVertex(Vertex(point: point, extrude: extrude, round: round, up: true, direction: Self.sign(-endRight), distance: distance))
    }

    /// One vertex of a pie slice on the outer side of a turn.
    private mutating func addPieSliceVertex(_ point: Point, extrude: Point, turnsLeft: Bool) {
        vertices.append(Vertex(point: point, extrude: extrude * (turnsLeft ? -1 : 1), round: false, up: turnsLeft, direction: 0, distance: distance))
        e3 = vertices.count - 1
        if e1 >= 0, e2 >= 0 { triangles += [Int32(e1), Int32(e2), Int32(e3)] }
        if turnsLeft { e2 = e3 } else { e1 = e3 }
    }

    private mutating func addVertex(_ vertex: Vertex) {
        vertices.append(vertex)
        e3 = vertices.count - 1
        if e1 >= 0, e2 >= 0 { triangles += [Int32(e1), Int32(e2), Int32(e3)] }
        e1 = e2
        e2 = e3
    }

    private static func sign(_ value: Double) -> Int8 { value == 0 ? 0 : value < 0 ? -1 : 1 }
    private static func perp(_ p: Point) -> Point { Point(-p.y, p.x) }
    private static func magnitude(_ p: Point) -> Double { (p.x * p.x + p.y * p.y).squareRoot() }
    private static func unit(_ p: Point) -> Point {
        let m = magnitude(p)
        return m == 0 ? p : Point(p.x / m, p.y / m)
    }
}

extension LineTessellator.Vertex {
    /// A vertex with its extrude quantised as the vertex buffer's bytes keep it (63 steps per unit).
    init(point: Point, extrude: Point, round: Bool, up: Bool, direction: Int8, distance: Double) {
        self.init(point: point, extrudeX: Self.quantised(extrude.x), extrudeY: Self.quantised(extrude.y),
                  round: round, up: up, direction: direction, distance: distance)
    }

    private static func quantised(_ value: Double) -> Double {
        min(127, max(-128, (value * 63).rounded())) / 63
    }
}

private extension Point {
    static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    static func * (a: Point, k: Double) -> Point { Point(a.x * k, a.y * k) }
}
