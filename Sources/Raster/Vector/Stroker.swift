import Foundation

/// Turns a path's outline into a fillable shape: a union of convex pieces
/// (one quadrilateral per segment, plus join and cap pieces), all wound the
/// same way so that, filled with the non-zero rule, overlaps merge instead of
/// cancelling.
enum Stroker {
    static func outline(of path: Path, style: StrokeStyle) -> Path {
        var result = Path()
        let half = style.width / 2
        guard half > 0 else { return result }
        for subpath in path.subpaths {
            var points = subpath.points.filter(\.isFinite)
            points = points.enumerated().filter { $0.offset == 0 || $0.element != points[$0.offset - 1] }.map(\.element)
            if subpath.closed, points.count > 2, points.first == points.last { points.removeLast() }
            guard let first = points.first else { continue }
            if points.count == 1 {
                if style.cap == .round { add(Path.circlePoints(center: first, radius: half), to: &result) }
                if style.cap == .square { add([first + Point(-half, -half), first + Point(half, -half), first + Point(half, half), first + Point(-half, half)], to: &result) }
                continue
            }
            let segmentCount = subpath.closed ? points.count : points.count - 1
            for i in 0..<segmentCount {
                var a = points[i], b = points[(i + 1) % points.count]
                let direction = (b - a) * (1 / (b - a).length)
                if !subpath.closed && style.cap == .square {
                    if i == 0 { a = a - direction * half }
                    if i == segmentCount - 1 { b = b + direction * half }
                }
                let normal = Point(-direction.y, direction.x) * half
                add([a + normal, b + normal, b - normal, a - normal], to: &result)
            }
            // Joins at interior vertices (every vertex of a closed path).
            let joinIndices = subpath.closed ? Array(0..<points.count) : Array(1..<max(1, points.count - 1))
            for i in joinIndices {
                let vertex = points[i]
                let before = points[(i - 1 + points.count) % points.count], after = points[(i + 1) % points.count]
                addJoin(at: vertex, incoming: vertex - before, outgoing: after - vertex, half: half, style: style, to: &result)
            }
            if !subpath.closed && style.cap == .round {
                add(Path.circlePoints(center: first, radius: half), to: &result)
                add(Path.circlePoints(center: points[points.count - 1], radius: half), to: &result)
            }
        }
        return result
    }

    private static func addJoin(at vertex: Point, incoming: Point, outgoing: Point, half: Double, style: StrokeStyle, to result: inout Path) {
        let d0 = incoming * (1 / incoming.length), d1 = outgoing * (1 / outgoing.length)
        let turn = d0.x * d1.y - d0.y * d1.x
        guard abs(turn) > 1e-12 || d0.x * d1.x + d0.y * d1.y < 0 else { return }  // straight on: no gap to fill
        switch style.join {
        case .round:
            add(Path.circlePoints(center: vertex, radius: half), to: &result)
        case .bevel, .miter:
            // The outer side is the one the path turns away from.
            let side: Double = turn > 0 ? -1 : 1
            let n0 = Point(-d0.y, d0.x) * (half * side), n1 = Point(-d1.y, d1.x) * (half * side)
            var piece = [vertex, vertex + n0, vertex + n1]
            if style.join == .miter {
                let bisector = n0 + n1
                let cosHalfAngle = (bisector.length / 2) / half
                if cosHalfAngle > 1e-9, 1 / cosHalfAngle <= style.miterLimit {
                    let tip = vertex + bisector * (1 / bisector.length) * (half / cosHalfAngle)
                    piece = [vertex, vertex + n0, tip, vertex + n1]
                }
            }
            add(piece, to: &result)
        }
    }

    /// Adds a convex polygon, wound counter-clockwise like every other piece.
    private static func add(_ polygon: [Point], to result: inout Path) {
        guard polygon.count >= 3 else { return }
        result.append(Path(polygon: Path.counterClockwise(polygon)))
    }
}
