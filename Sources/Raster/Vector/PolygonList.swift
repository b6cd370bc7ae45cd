/// Closed polygons stored flat: every ring's points in one array and where
/// each ring ends. A stroke is thousands of tiny pieces (a quadrilateral per
/// segment, a wedge per join); one array for all of them, instead of one per
/// piece, keeps filling them from being a storm of small allocations.
struct PolygonList {
    /// The points of all rings, ring after ring.
    private(set) var points: [Point] = []
    /// For each ring, the index one past its last point.
    private(set) var ends: [Int] = []
    /// For each ring, its lowest and highest y: a fill done in bands of rows
    /// skips a ring outside the band with one test instead of one per edge.
    private(set) var top: [Double] = []
    private(set) var bottom: [Double] = []
    /// Where the ring being built starts.
    private var start = 0

    init() {}

    /// The given rings, each implicitly closed.
    init(_ rings: [[Point]]) {
        for ring in rings {
            points += ring
            closeRing()
        }
    }

    /// Adds a point to the ring being built.
    @inline(__always)
    mutating func append(_ point: Point) {
        points.append(point)
    }

    /// Ends the ring being built (a ring of fewer than two points is dropped).
    /// With `positive`, a ring wound the other way is reversed, so that every
    /// piece of a stroke adds coverage under the non-zero rule.
    mutating func closeRing(positive: Bool = false) {
        guard points.count - start >= 2 else {
            points.removeLast(points.count - start)
            return
        }
        if positive && signedArea(start..<points.count) < 0 { points[start...].reverse() }
        var low = Double.infinity, high = -Double.infinity
        for p in points[start...] {
            low = min(low, p.y)
            high = max(high, p.y)
        }
        top.append(low)
        bottom.append(high)
        ends.append(points.count)
        start = points.count
    }

    /// Twice the signed area of the ring at `range` (shoelace).
    private func signedArea(_ range: Range<Int>) -> Double {
        var sum = 0.0
        var previous = points[range.upperBound - 1]
        for i in range {
            let q = points[i]
            sum += previous.x * q.y - q.x * previous.y
            previous = q
        }
        return sum
    }
}
