/// Clips projected features to a band `k1…k2` along one axis, as geojson-vt's
/// `clip` does: points outside are dropped, lines are cut where they leave
/// the band (one line per piece inside), rings are cut and closed along the
/// band's edge (Sutherland–Hodgman on one axis). Points made at the band's
/// edge have importance 1, so no zoom simplifies them away.
enum GeoJSONClipper {
    typealias Feature = GeoJSONProjectedFeature
    typealias Vertex = GeoJSONProjectedFeature.Vertex
    typealias Ring = GeoJSONProjectedFeature.Ring

    enum Axis { case x, y }

    /// The parts of `features` within `k1…k2` on `axis`; a feature wholly
    /// inside is kept as it is, one wholly outside is dropped unexamined.
    static func clip(_ features: [Feature], _ k1: Double, _ k2: Double, _ axis: Axis) -> [Feature] {
        var result: [Feature] = []
        for feature in features {
            let low = axis == .x ? feature.minX : feature.minY
            let high = axis == .x ? feature.maxX : feature.maxY
            if low >= k1 && high < k2 {
                result.append(feature)
                continue
            }
            if high < k1 || low > k2 { continue }
            var groups: [[Ring]] = []
            switch feature.shape {
            case .points:
                let kept = feature.groups[0][0].vertices.filter { (k1...k2).contains(coordinate($0, axis)) }
                if !kept.isEmpty { groups = [[Ring(vertices: kept, size: 0)]] }
            case .lines:
                for group in feature.groups {
                    for line in group { groups += clipLine(line, k1, k2, axis, polygon: false).map { [$0] } }
                }
            case .polygons:
                for group in feature.groups {
                    let rings = group.flatMap { clipLine($0, k1, k2, axis, polygon: true) }
                    if !rings.isEmpty { groups.append(rings) }
                }
            }
            guard !groups.isEmpty else { continue }
            var clipped = feature
            clipped.groups = groups
            clipped.updateBounds()
            result.append(clipped)
        }
        return result
    }

    /// `features` moved `offset` worlds along x (a copy across the antimeridian).
    static func shifted(_ features: [Feature], by offset: Double) -> [Feature] {
        features.map { feature in
            var moved = feature
            moved.groups = feature.groups.map { $0.map { ring in
                Ring(vertices: ring.vertices.map { Vertex(x: $0.x + offset, y: $0.y, importance: $0.importance) }, size: ring.size,
                     start: ring.start, end: ring.end)
            } }
            moved.updateBounds()
            return moved
        }
    }

    @inline(__always)
    private static func coordinate(_ vertex: Vertex, _ axis: Axis) -> Double { axis == .x ? vertex.x : vertex.y }

    /// The pieces of `line` inside the band; a ring gives at most one, closed.
    /// A line's pieces keep where they start and end on the whole line
    /// (geojson-vt's `trackMetrics`): where they enter and leave the band.
    private static func clipLine(_ line: Ring, _ k1: Double, _ k2: Double, _ axis: Axis, polygon: Bool) -> [Ring] {
        let vertices = line.vertices
        guard !vertices.isEmpty else { return [] }
        var pieces: [Ring] = []
        var slice: [Vertex] = []
        var sliceStart = line.start
        /// How far along the whole line the segment being clipped starts.
        var sofar = line.start
        /// Adds where a–b crosses k; gives the fraction of a–b before it.
        @discardableResult
        func intersect(_ a: Vertex, _ b: Vertex, _ k: Double) -> Double {
            let t: Double
            switch axis {
            case .x:
                t = (k - a.x) / (b.x - a.x)
                slice.append(Vertex(x: k, y: a.y + (b.y - a.y) * t, importance: 1))
            case .y:
                t = (k - a.y) / (b.y - a.y)
                slice.append(Vertex(x: a.x + (b.x - a.x) * t, y: k, importance: 1))
            }
            return t
        }
        for i in 0..<(vertices.count - 1) {
            let a = vertices[i], b = vertices[i + 1]
            let ak = coordinate(a, axis), bk = coordinate(b, axis)
            let segment = polygon ? 0 : ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            var exited = false
            var t = 0.0
            if ak < k1 {
                if bk > k1 { sliceStart = sofar + segment * intersect(a, b, k1) }    // enters from the low side
            } else if ak > k2 {
                if bk < k2 { sliceStart = sofar + segment * intersect(a, b, k2) }    // enters from the high side
            } else {
                slice.append(a)
            }
            if bk < k1 && ak >= k1 {                      // leaves on the low side
                t = intersect(a, b, k1)
                exited = true
            }
            if bk > k2 && ak <= k2 {                      // leaves on the high side
                t = intersect(a, b, k2)
                exited = true
            }
            if !polygon && exited {
                pieces.append(Ring(vertices: slice, size: line.size, start: sliceStart, end: sofar + segment * t))
                slice = []
                sliceStart = line.start
            }
            sofar += segment
        }
        let last = vertices[vertices.count - 1]
        if (k1...k2).contains(coordinate(last, axis)) { slice.append(last) }
        if polygon, slice.count >= 2, let first = slice.first, let end = slice.last, first.x != end.x || first.y != end.y {
            slice.append(first)
        }
        if !slice.isEmpty { pieces.append(Ring(vertices: slice, size: line.size, start: sliceStart, end: line.end)) }
        return pieces
    }
}
