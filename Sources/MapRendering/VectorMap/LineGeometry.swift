import Raster

/// Polyline operations a `line` layer needs before stroking: parallel offsets
/// (`line-offset`, and the two strokes of a `line-gap-width` casing) and
/// dashes (`line-dasharray`), in output pixels.
enum LineGeometry {
    /// The polyline moved `distance` pixels to the right of its direction (y
    /// down), each vertex along the mean of its segments' normals, lengthened
    /// so the offset segments stay parallel, up to twice `distance` at sharp
    /// corners (as a miter limit of 2 would). Repeated points are dropped.
    static func offset(_ polyline: [Point], closed: Bool, by distance: Double) -> [Point] {
        var points: [Point] = []
        points.reserveCapacity(polyline.count)
        for p in polyline where points.last != p { points.append(p) }
        if closed, points.count > 2, points.first == points.last { points.removeLast() }
        let n = points.count
        guard n >= 2, distance != 0 else { return points }
        // The right-hand unit normal of the segment from i to i + 1.
        func normal(_ i: Int) -> (x: Double, y: Double) {
            let a = points[i], b = points[(i + 1) % n]
            let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
            return (-dy / length, dx / length)
        }
        var out = [Point]()
        out.reserveCapacity(n)
        for i in 0..<n {
            let before: (x: Double, y: Double)? = i > 0 ? normal(i - 1) : (closed ? normal(n - 1) : nil)
            let after: (x: Double, y: Double)? = i < n - 1 || closed ? normal(i) : nil
            let a = before ?? after!, b = after ?? before!
            var mx = a.x + b.x, my = a.y + b.y
            let length = (mx * mx + my * my).squareRoot()
            if length < 1e-9 {
                // A full reversal: offset along the incoming normal.
                mx = a.x; my = a.y
            } else {
                // 1 / cos(half the turn), capped at 2.
                let cosine = max(0.5, (mx * a.x + my * a.y) / length)
                mx = mx / length / cosine
                my = my / length / cosine
            }
            out.append(Point(points[i].x + mx * distance, points[i].y + my * distance))
        }
        return out
    }

    /// Most dashes one line is cut into; past it the line is drawn solid.
    static let maximumDashesPerLine = 100_000

    /// A `line-dasharray` in pixels, checked and made even once per paint:
    /// alternating dash and gap lengths starting with a dash; an odd-length
    /// pattern repeats twice, so dashes and gaps alternate.
    struct DashPattern {
        /// The lengths, an even count of them.
        let lengths: [Double]
        /// Their sum: the pixels after which the pattern repeats.
        let period: Double

        /// Nil when `pattern` cannot dash (empty, all gaps, a negative or
        /// non-finite length, or shorter than 0.05 px in all): the line is drawn solid.
        init?(_ pattern: [Double]) {
            guard !pattern.isEmpty, pattern.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
            let lengths = pattern.count % 2 == 1 ? pattern + pattern : pattern
            let period = lengths.reduce(0, +)
            guard stride(from: 0, to: lengths.count, by: 2).contains(where: { lengths[$0] > 0 }), period > 0.05 else { return nil }
            self.lengths = lengths
            self.period = period
        }

        /// About how many dashes a polyline `length` pixels long has (at most one more).
        func dashCount(alongLength length: Double) -> Double {
            length / period * Double(lengths.count / 2)
        }
    }

    /// The length of `polyline` in pixels, walked back to its start when `closed`.
    static func length(of polyline: [Point], closed: Bool) -> Double {
        var total = 0.0
        for i in polyline.indices.dropFirst() { total += distance(polyline[i - 1], polyline[i]) }
        if closed, let first = polyline.first, let last = polyline.last { total += distance(last, first) }
        return total
    }

    private static func distance(_ a: Point, _ b: Point) -> Double {
        ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }

    /// The dashes of `polyline` for `pattern` (alternating dash and gap lengths
    /// in pixels, starting with a dash at the first point); a closed polyline
    /// is walked back to its start. Nil when the pattern cannot dash (see
    /// ``DashPattern``): the line is drawn solid.
    /// A line that would need more than `maximumDashes` dashes is drawn solid too
    /// (a hostile pattern of a millionth of a pixel), counted before the work.
    static func dashes(of polyline: [Point], closed: Bool, pattern: [Double], maximumDashes: Int = maximumDashesPerLine) -> [[Point]]? {
        DashPattern(pattern).flatMap { dashes(of: polyline, closed: closed, pattern: $0, maximumDashes: maximumDashes) }
    }

    /// The dashes of `polyline` for a checked `pattern`, as the overload taking its lengths gives them.
    static func dashes(of polyline: [Point], closed: Bool, pattern: DashPattern, maximumDashes: Int = maximumDashesPerLine) -> [[Point]]? {
        let lengths = pattern.lengths
        var points = polyline
        if closed, let first = points.first, points.last != first { points.append(first) }
        guard pattern.dashCount(alongLength: length(of: points, closed: false)) <= Double(maximumDashes) else { return nil }
        var result: [[Point]] = []
        var index = 0, remaining = lengths[0]
        var current: [Point]? = points.first.map { [$0] }
        for i in 1..<max(1, points.count) {
            var a = points[i - 1]
            let b = points[i]
            var segment = distance(a, b)
            while segment > remaining {
                let t = remaining / segment
                let cut = Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
                if var dash = current {
                    dash.append(cut)
                    result.append(dash)
                    current = nil
                } else {
                    current = [cut]
                }
                segment -= remaining
                a = cut
                index = (index + 1) % lengths.count
                remaining = lengths[index]
            }
            remaining -= segment
            current?.append(b)
        }
        if let dash = current, dash.count >= 2 { result.append(dash) }
        return result
    }
}
