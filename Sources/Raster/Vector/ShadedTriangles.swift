/// Triangles drawn as a GPU draws them: a pixel is shaded when its centre lies
/// inside a triangle (edges shared by two triangles go to exactly one), two
/// or three values per vertex are interpolated linearly to that centre, a shading
/// function turns them into the pixel's alpha, and every triangle blends on
/// its own, source-over (where triangles overlap, the colour blends twice).
///
/// How MapLibre's GL pipeline draws lines: its buckets tessellate a line into
/// triangles whose vertices carry the line's normal, and the fragment shader
/// fades the edge by the distance that normal gives. Drawing the same
/// triangles the same way gives the same pixels.
public struct ShadedTriangles: Sendable {
    /// One vertex: a position in pixels and the values interpolated across its triangles.
    public struct Vertex: Sendable, Equatable {
        /// The position in canvas pixels (the pixel at column c spans c…c + 1).
        public var x: Double
        /// The position in canvas pixels, y down.
        public var y: Double
        /// The first interpolated value.
        public var u: Double
        /// The second interpolated value.
        public var v: Double
        /// The third interpolated value.
        public var w: Double

        /// A vertex at (`x`, `y`) carrying (`u`, `v`, `w`).
        public init(x: Double, y: Double, u: Double, v: Double, w: Double = 0) {
            self.x = x
            self.y = y
            self.u = u
            self.v = v
            self.w = w
        }
    }

    /// The vertices.
    public var vertices: [Vertex] = []
    /// Three indices into ``vertices`` per triangle.
    public var indices: [Int32] = []
    /// Only pixels whose centres lie in this rectangle are drawn (MapLibre
    /// clips each tile's drawing to the tile's square with the stencil).
    public var clip: (minX: Double, minY: Double, maxX: Double, maxY: Double)

    /// An empty mesh clipped to the given rectangle.
    public init(clip: (minX: Double, minY: Double, maxX: Double, maxY: Double) = (-.infinity, -.infinity, .infinity, .infinity)) {
        self.clip = clip
    }

    /// The number of triangles.
    public var triangleCount: Int { indices.count / 3 }

    /// What a shading function promises by the radius of its first two
    /// values alone, `r = u * u + v * v` as computed in that order (a line's
    /// feather depends on the distance from the line): pixels it settles are
    /// drawn without calling it, the same bytes for less work.
    public struct RadialBounds: Sendable, Equatable {
        /// The shade is at most 0 (nothing drawn) wherever `r <= zeroWithin`
        /// (a casing's gap); negative: nowhere.
        public var zeroWithin: Double
        /// The shade is at least 1 (full alpha) wherever `fullFrom <= r && r <= fullTo`
        /// (a line's middle, before its edge fades); empty when `fullTo < fullFrom`.
        public var fullFrom: Double, fullTo: Double
        /// The shade is at most 0 wherever `r >= zeroFrom` (past a round cap's edge).
        public var zeroFrom: Double

        /// Bounds settling the pixels given.
        public init(zeroWithin: Double, fullFrom: Double, fullTo: Double, zeroFrom: Double) {
            self.zeroWithin = zeroWithin
            self.fullFrom = fullFrom
            self.fullTo = fullTo
            self.zeroFrom = zeroFrom
        }

        /// No promise: every pixel is shaded.
        public static let none = RadialBounds(zeroWithin: -1, fullFrom: 1, fullTo: -1, zeroFrom: .infinity)
    }
}

extension Canvas {
    /// Draws every triangle of `mesh` in `color` (straight alpha), each
    /// pixel's alpha multiplied by `shade` of the values interpolated to its
    /// centre (clamped to 0…1). Throws for a vertex that is not finite or
    /// beyond ``coordinateLimit``, or an index out of range.
    /// `bounds` are what `shade` promises by u² + v² alone
    /// (``ShadedTriangles/RadialBounds``): pixels they settle are skipped or
    /// drawn at full alpha without calling it.
    public mutating func draw(_ mesh: ShadedTriangles, color: RGBA, bounds: ShadedTriangles.RadialBounds = .none,
                              shade: (Double, Double, Double) -> Double) throws {
        try Self.check(mesh)
        guard color.a != 0 else { return }
        // Premultiplied, in 0…1: the shader's colour.
        let alpha = Double(color.a) / 255
        let source = (Double(color.r) / 255 * alpha, Double(color.g) / 255 * alpha, Double(color.b) / 255 * alpha, alpha)
        // At full alpha an opaque colour replaces what is there (it keeps none
        // of it): its four bytes, as the blend below makes them.
        let opaque = color.a == 255
        let full = (Self.channel(source.0, over: 0, keeping: 0), Self.channel(source.1, over: 0, keeping: 0),
                    Self.channel(source.2, over: 0, keeping: 0), Self.channel(source.3, over: 0, keeping: 0))
        let (width, height, rows) = (width, height, rows)
        pixels.withUnsafeMutableBufferPointer { pixels in
            Self.forEachCentre(of: mesh, width: width, height: height, rows: rows) { i, wa, wb, wc, a, b, c in
                let u = wa * a.u + wb * b.u + wc * c.u, v = wa * a.v + wb * b.v + wc * c.v
                let r = u * u + v * v
                var k = 1.0
                if r < bounds.fullFrom || r > bounds.fullTo {
                    if r <= bounds.zeroWithin || r >= bounds.zeroFrom { return }
                    let coverage = shade(u, v, wa * a.w + wb * b.w + wc * c.w)
                    guard coverage > 0 else { return }
                    k = min(1, coverage)
                }
                if k == 1, opaque {
                    (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = full
                    return
                }
                let sa = source.3 * k
                let keep = 1 - sa
                pixels[i] = Self.channel(source.0 * k, over: pixels[i], keeping: keep)
                pixels[i + 1] = Self.channel(source.1 * k, over: pixels[i + 1], keeping: keep)
                pixels[i + 2] = Self.channel(source.2 * k, over: pixels[i + 2], keeping: keep)
                pixels[i + 3] = Self.channel(sa, over: pixels[i + 3], keeping: keep)
            }
        }
    }

    /// Draws every triangle of `mesh`, each pixel in the premultiplied colour
    /// (0…1 per channel, clamped) `shade` gives for the values interpolated to
    /// its centre, blended source-over (a line whose colour varies along it:
    /// `line-gradient`). Throws as ``draw(_:color:bounds:shade:)`` does.
    public mutating func draw(_ mesh: ShadedTriangles, shade: (Double, Double, Double) -> SIMD4<Double>) throws {
        try Self.check(mesh)
        let (width, height, rows) = (width, height, rows)
        pixels.withUnsafeMutableBufferPointer { pixels in
            Self.forEachCentre(of: mesh, width: width, height: height, rows: rows) { i, wa, wb, wc, a, b, c in
                let color = shade(wa * a.u + wb * b.u + wc * c.u, wa * a.v + wb * b.v + wc * c.v, wa * a.w + wb * b.w + wc * c.w)
                let sa = min(max(color[3].isNaN ? 0 : color[3], 0), 1)
                guard sa > 0 else { return }
                let keep = 1 - sa
                for channel in 0..<3 {
                    pixels[i + channel] = Self.channel(min(max(color[channel].isNaN ? 0 : color[channel], 0), sa), over: pixels[i + channel], keeping: keep)
                }
                pixels[i + 3] = Self.channel(sa, over: pixels[i + 3], keeping: keep)
            }
        }
    }

    /// Throws for a vertex that is not finite or beyond ``coordinateLimit``, or an index out of range.
    private static func check(_ mesh: ShadedTriangles) throws {
        for vertex in mesh.vertices {
            guard vertex.x.isFinite, vertex.y.isFinite, abs(vertex.x) <= Canvas.coordinateLimit, abs(vertex.y) <= Canvas.coordinateLimit,
                  vertex.u.isFinite, vertex.v.isFinite, vertex.w.isFinite else {
                throw RasterError.invalidArgument("triangle vertex (\(vertex.x), \(vertex.y)) is not finite or beyond ±1e12")
            }
        }
        guard mesh.indices.count % 3 == 0, mesh.indices.allSatisfy({ $0 >= 0 && Int($0) < mesh.vertices.count }) else {
            throw RasterError.invalidArgument("triangle indices must come in threes, each below the vertex count \(mesh.vertices.count)")
        }
    }

    /// Calls `body` for every pixel centre inside a triangle of `mesh` (and
    /// its clip, the canvas and the rows held) with the pixel's byte offset,
    /// its barycentric weights and the triangle's vertices (wound so its area
    /// is positive). The mesh must have passed ``check(_:)``.
    @inline(__always)
    private static func forEachCentre(of mesh: ShadedTriangles, width: Int, height: Int, rows: Range<Int>,
                                      _ body: (Int, Double, Double, Double, ShadedTriangles.Vertex, ShadedTriangles.Vertex, ShadedTriangles.Vertex) -> Void) {
        guard width > 0, !rows.isEmpty else { return }
        // Pixel centres allowed: the clip, the canvas and the rows held.
        let clipX0 = max(0, Int(max(-1, (mesh.clip.minX - 0.5).rounded(.up))))
        let clipX1 = min(width - 1, Int(max(-1, min(Double(width), (mesh.clip.maxX - 0.5).rounded(.down)))))
        let clipY0 = max(rows.lowerBound, Int(max(-1, min(Double(height), (mesh.clip.minY - 0.5).rounded(.up)))))
        let clipY1 = min(rows.upperBound - 1, Int(max(-1, min(Double(height), (mesh.clip.maxY - 0.5).rounded(.down)))))
        guard clipX0 <= clipX1, clipY0 <= clipY1 else { return }
        let rowStart = rows.lowerBound
        let stride = width * 4
        mesh.vertices.withUnsafeBufferPointer { vertices in
        mesh.indices.withUnsafeBufferPointer { indices in
            for t in 0..<indices.count / 3 {
                // Indices were checked.
                var a = vertices[Int(indices[3 * t])]
                var b = vertices[Int(indices[3 * t + 1])]
                let c = vertices[Int(indices[3 * t + 2])]
                var area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
                guard area != 0 else { continue }
                if area < 0 { swap(&a, &b); area = -area }
                let x0 = max(clipX0, Int((min(a.x, b.x, c.x) - 0.5).rounded(.up)))
                let x1 = min(clipX1, Int((max(a.x, b.x, c.x) - 0.5).rounded(.down)))
                let y0 = max(clipY0, Int((min(a.y, b.y, c.y) - 0.5).rounded(.up)))
                let y1 = min(clipY1, Int((max(a.y, b.y, c.y) - 0.5).rounded(.down)))
                guard x0 <= x1, y0 <= y1 else { continue }
                // Edge functions, positive inside (y down, wound so the area is
                // positive); a centre on an edge counts for one of the two
                // triangles sharing it: the top-left rule.
                let (e0, e1, e2) = (Self.edge(b, c), Self.edge(c, a), Self.edge(a, b))
                let inverseArea = 1 / area
                for y in y0...y1 {
                    let py = Double(y) + 0.5
                    let row = (y - rowStart) * stride
                    // The centres this row can have inside: each edge function is
                    // linear along the row, so it bounds x on one side (a pixel
                    // of slack either way; the exact test below decides).
                    var first = x0, last = x1
                    e0.narrow(&first, &last, row: py)
                    e1.narrow(&first, &last, row: py)
                    e2.narrow(&first, &last, row: py)
                    // Each edge function, rounded as computed, is monotonic
                    // along a row, so the centres inside are one run: found from
                    // both ends, none tested twice.
                    while first <= last, !Self.inside(Double(first) + 0.5, py, e0, e1, e2) { first += 1 }
                    while last > first, !Self.inside(Double(last) + 0.5, py, e0, e1, e2) { last -= 1 }
                    guard first <= last else { continue }
                    for x in first...last {
                        let px = Double(x) + 0.5
                        body(row + x * 4, e0.value(px, py) * inverseArea, e1.value(px, py) * inverseArea, e2.value(px, py) * inverseArea, a, b, c)
                    }
                }
            }
        }
        }
    }

    /// Whether the centre (`x`, `y`) is inside all three edges.
    @inline(__always)
    private static func inside(_ x: Double, _ y: Double, _ e0: Edge, _ e1: Edge, _ e2: Edge) -> Bool {
        e0.contains(e0.value(x, y)) && e1.contains(e1.value(x, y)) && e2.contains(e2.value(x, y))
    }

    /// One premultiplied channel blended source-over, as an 8-bit framebuffer
    /// keeps it: rounded half away from zero, as `rounded()` rounds, but by
    /// truncating and comparing the exact remainder (the value is at least 0
    /// and small), with no call into libm for each channel of each pixel.
    @inline(__always)
    static func channel(_ source: Double, over destination: UInt8, keeping keep: Double) -> UInt8 {
        let value = source * 255 + Double(destination) * keep
        let whole = Int(value)
        return UInt8(min(255, whole + (value - Double(whole) >= 0.5 ? 1 : 0)))
    }

    /// A triangle edge from p to q as an edge function.
    private struct Edge {
        let dx: Double, dy: Double, px: Double, py: Double
        /// Whether a centre exactly on the edge is inside: top and left edges are (y down, positive area).
        let inclusive: Bool

        @inline(__always)
        func value(_ x: Double, _ y: Double) -> Double { dx * (y - py) - dy * (x - px) }

        @inline(__always)
        func contains(_ w: Double) -> Bool { w > 0 || (w == 0 && inclusive) }

        /// Narrows the columns `first…last` of the row of centres at `py` to
        /// those this edge can hold inside (a column of slack either side).
        @inline(__always)
        func narrow(_ first: inout Int, _ last: inout Int, row py: Double) {
            let slope = -dy, atZero = dx * (py - self.py) + dy * px
            if slope > 0 {
                first = max(first, Int(max(-1e15, min(1e15, (-atZero / slope - 0.5).rounded(.down)))) - 1)
            } else if slope < 0 {
                last = min(last, Int(max(-1e15, min(1e15, (-atZero / slope - 0.5).rounded(.up)))) + 1)
            }
        }
    }

    private static func edge(_ p: ShadedTriangles.Vertex, _ q: ShadedTriangles.Vertex) -> Edge {
        let dx = q.x - p.x, dy = q.y - p.y
        return Edge(dx: dx, dy: dy, px: p.x, py: p.y, inclusive: dy < 0 || (dy == 0 && dx > 0))
    }
}
