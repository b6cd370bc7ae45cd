import Foundation

/// Turns polylines into fillable outlines: one quadrilateral per segment plus
/// join and cap pieces, all wound the same way so a non-zero fill draws their
/// union (overlaps simply reach full coverage).
enum Stroker {
    static func outlines(of polyline: [Point], closed: Bool, style: StrokeStyle) -> [[Point]] {
        // Drop repeated points: zero-length segments have no direction.
        var points: [Point] = []
        points.reserveCapacity(polyline.count)
        for p in polyline where points.last != p { points.append(p) }
        if closed, points.count > 2, points.first == points.last { points.removeLast() }
        guard points.count >= 2 else { return [] }
        let hw = style.width / 2
        var pieces: [[Point]] = []
        pieces.reserveCapacity(points.count * 2 + 2)
        let segmentCount = closed ? points.count : points.count - 1
        func direction(_ i: Int) -> (Double, Double) {
            let a = points[i], b = points[(i + 1) % points.count]
            let dx = b.x - a.x, dy = b.y - a.y, len = (dx * dx + dy * dy).squareRoot()
            return (dx / len, dy / len)
        }
        for i in 0..<segmentCount {
            var a = points[i], b = points[(i + 1) % points.count]
            let (dx, dy) = direction(i)
            if !closed && style.cap == .square {
                if i == 0 { a = Point(a.x - dx * hw, a.y - dy * hw) }
                if i == segmentCount - 1 { b = Point(b.x + dx * hw, b.y + dy * hw) }
            }
            let nx = -dy * hw, ny = dx * hw
            pieces.append([Point(a.x + nx, a.y + ny), Point(b.x + nx, b.y + ny), Point(b.x - nx, b.y - ny), Point(a.x - nx, a.y - ny)])
        }
        // Joins at interior vertices (all vertices when closed).
        let joinRange = closed ? 0..<points.count : 1..<(points.count - 1)
        for i in joinRange {
            let (d1x, d1y) = direction((i - 1 + points.count) % points.count)
            let (d2x, d2y) = direction(i)
            let cross = d1x * d2y - d1y * d2x, dot = d1x * d2x + d1y * d2y
            if abs(cross) < 1e-9 && dot > 0 { continue }
            let v = points[i]
            let side: Double = cross > 0 ? -1 : 1 // the outer side of the turn
            let p1 = Point(v.x - d1y * hw * side, v.y + d1x * hw * side)
            let p2 = Point(v.x - d2y * hw * side, v.y + d2x * hw * side)
            switch style.join {
            case .round:
                pieces.append(circle(v, hw))
            case .bevel:
                pieces.append([v, p1, p2])
            case .miter:
                let ratio = (2 / max(1e-12, 1 + dot)).squareRoot()
                if ratio <= style.miterLimit {
                    let mx = (p1.x - v.x) + (p2.x - v.x), my = (p1.y - v.y) + (p2.y - v.y)
                    let scale = 1 / (1 + dot)
                    pieces.append([v, p1, Point(v.x + mx * scale, v.y + my * scale), p2])
                } else {
                    pieces.append([v, p1, p2])
                }
            }
        }
        if !closed && style.cap == .round {
            pieces.append(circle(points[0], hw))
            pieces.append(circle(points[points.count - 1], hw))
        }
        // Wind every piece the same way so overlaps add instead of cancelling.
        for i in pieces.indices where signedArea(pieces[i]) < 0 { pieces[i].reverse() }
        return pieces
    }

    /// A polygonal circle fine enough that chords stay within ~0.1 px.
    static func circle(_ c: Point, _ r: Double) -> [Point] {
        let n = max(8, min(512, Int((Double.pi / acos(max(-1, min(1, 1 - 0.1 / max(r, 0.1))))).rounded(.up))))
        return (0..<n).map { i in
            let t = Double(i) / Double(n) * 2 * .pi
            return Point(c.x + r * cos(t), c.y + r * sin(t))
        }
    }

    static func signedArea(_ p: [Point]) -> Double {
        var s = 0.0
        var previous = p[p.count - 1]
        for q in p { s += previous.x * q.y - q.x * previous.y; previous = q }
        return s / 2
    }
}
