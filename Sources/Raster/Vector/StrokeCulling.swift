/// Cuts a polyline down to the runs of segments that can reach a rectangle, so
/// a stroke spends no outline pieces (and no coverage work) on the parts of a
/// long line far off the canvas, such as a country border going round a
/// continent while the canvas shows one corner of it.
///
/// A segment is dropped only when both its ends lie beyond the same side of
/// the rectangle, and the rectangle is the canvas grown by the stroke's reach
/// (half its width, times the miter limit for miter joins) plus a margin: the
/// caps that replace the joins where a run is cut then lie off the canvas too,
/// so the pixels drawn are those of the whole line.
enum StrokeCulling {
    /// A visible piece of a subpath: its points and whether it is still closed.
    struct Run {
        var points: [Point]
        var closed: Bool
    }

    /// The runs of `points` (closed: the last point joins the first) with a
    /// segment reaching `minX...maxX` × `minY...maxY`. A line wholly inside comes
    /// back as it is; points that are not finite or beyond `limit` are always
    /// kept, so the fill still rejects them.
    static func visibleRuns(of points: [Point], closed: Bool, minX: Double, minY: Double, maxX: Double, maxY: Double,
                            limit: Double) -> [Run] {
        let count = points.count
        guard count >= 2 else { return [Run(points: points, closed: closed)] }
        @inline(__always) func isOff(_ a: Point, _ b: Point) -> Bool {
            guard abs(a.x) <= limit, abs(a.y) <= limit, abs(b.x) <= limit, abs(b.y) <= limit else { return false }
            return (a.x < minX && b.x < minX) || (a.x > maxX && b.x > maxX) || (a.y < minY && b.y < minY) || (a.y > maxY && b.y > maxY)
        }
        // Segment i runs from points[i] to points[(i + 1) % count].
        let segmentCount = closed ? count : count - 1
        guard let firstOff = (0..<segmentCount).first(where: { isOff(points[$0], points[($0 + 1) % count]) }) else {
            return [Run(points: points, closed: closed)]
        }
        // Start just after an off segment, so a closed line's run across its
        // closing point stays in one piece; an open line starts at its start.
        let start = closed ? firstOff + 1 : 0
        var runs: [Run] = []
        var current: [Point] = []
        for step in 0..<segmentCount {
            let i = (start + step) % segmentCount
            let a = points[i], b = points[(i + 1) % count]
            if isOff(a, b) {
                if current.count >= 2 { runs.append(Run(points: current, closed: false)) }
                current.removeAll(keepingCapacity: true)
                continue
            }
            if current.isEmpty { current.append(a) }
            current.append(b)
        }
        if current.count >= 2 { runs.append(Run(points: current, closed: false)) }
        return runs
    }
}
