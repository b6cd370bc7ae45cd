import Foundation

/// Turns polylines into fillable outlines: one quadrilateral per segment plus
/// join and cap pieces, all wound the same way so a non-zero fill draws their
/// union (overlaps simply reach full coverage).
///
/// Round joins and caps are wedges on the outer side only (the inner side is
/// already covered by the segments), stepped by a fixed rotation so no
/// trigonometry runs per vertex.
enum Stroker {
    /// Appends the outline pieces of `polyline` to `pieces`.
    static func appendOutlines(of polyline: [Point], closed: Bool, style: StrokeStyle, to pieces: inout PolygonList) {
        // Drop repeated points: zero-length segments have no direction. Most
        // lines have none, and are used as they are (no copy per line per band).
        var points = polyline
        if zip(polyline, polyline.dropFirst()).contains(where: { $0 == $1 }) {
            points = []
            points.reserveCapacity(polyline.count)
            for p in polyline where points.last != p { points.append(p) }
        }
        if closed, points.count > 2, points.first == points.last { points.removeLast() }
        guard points.count >= 2 else { return }
        let hw = style.width / 2
        let arc = ArcSteps(radius: hw)
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
            // Wound positively as written (the normal is d turned a quarter one
            // way, the corners go round the other), so no area test per quad.
            let nx = -dy * hw, ny = dx * hw
            pieces.append(Point(a.x - nx, a.y - ny))
            pieces.append(Point(b.x - nx, b.y - ny))
            pieces.append(Point(b.x + nx, b.y + ny))
            pieces.append(Point(a.x + nx, a.y + ny))
            pieces.closeRing()
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
                // The wedge from p1 to p2 around the outside of the corner, which
                // lies along d1 − d2 (for a hairpin: straight ahead).
                arc.appendWedge(at: v, from: p1, to: p2, around: (d1x - d2x, d1y - d2y),
                                angle: atan2(abs(cross), dot), to: &pieces)
            case .bevel:
                // Twice its signed area is (p1 − v) × (p2 − v) = hw² · cross: wound by the turn's sign.
                if cross > 0 {
                    pieces.append(v); pieces.append(p1); pieces.append(p2)
                } else {
                    pieces.append(p2); pieces.append(p1); pieces.append(v)
                }
                pieces.closeRing()
            case .miter:
                let ratio = (2 / max(1e-12, 1 + dot)).squareRoot()
                pieces.append(v); pieces.append(p1)
                if ratio <= style.miterLimit {
                    let mx = (p1.x - v.x) + (p2.x - v.x), my = (p1.y - v.y) + (p2.y - v.y)
                    let scale = 1 / (1 + dot)
                    pieces.append(Point(v.x + mx * scale, v.y + my * scale))
                }
                pieces.append(p2)
                pieces.closeRing(positive: true)
            }
        }
        if !closed && style.cap == .round {
            // Half discs beyond each end: behind the first point, ahead of the last.
            let (fx, fy) = direction(0)
            let first = points[0]
            arc.appendWedge(at: first, from: Point(first.x - fy * hw, first.y + fx * hw),
                            to: Point(first.x + fy * hw, first.y - fx * hw), around: (-fx, -fy), angle: .pi, to: &pieces)
            let (lx, ly) = direction(points.count - 2)
            let last = points[points.count - 1]
            arc.appendWedge(at: last, from: Point(last.x - ly * hw, last.y + lx * hw),
                            to: Point(last.x + ly * hw, last.y - lx * hw), around: (lx, ly), angle: .pi, to: &pieces)
        }
    }

    /// The chord step of a round join or cap of one radius: fine enough that
    /// chords stay within ~0.1 px of the circle, and at least 8 per turn.
    struct ArcSteps {
        let cosine: Double
        let sine: Double
        let step: Double

        /// Chords in a full turn at `radius`.
        static func count(radius: Double) -> Int {
            max(8, min(512, Int((Double.pi / acos(max(-1, min(1, 1 - 0.1 / max(radius, 0.1))))).rounded(.up))))
        }

        init(radius: Double) {
            let count = Self.count(radius: radius)
            step = 2 * .pi / Double(count)
            cosine = cos(step)
            sine = sin(step)
        }

        /// Appends the wedge (circular sector) at `centre` from `start` to `end`,
        /// turning through `angle` radians on the side `around` points to.
        func appendWedge(at centre: Point, from start: Point, to end: Point, around: (Double, Double),
                         angle: Double, to pieces: inout PolygonList) {
            var rx = start.x - centre.x, ry = start.y - centre.y
            // Turn from start towards `around`: counter-clockwise (in these
            // coordinates) when `around` is on that side of the start radius.
            let turn: Double = rx * around.1 - ry * around.0 >= 0 ? 1 : -1
            let sine = self.sine * turn
            pieces.append(centre)
            pieces.append(start)
            var swept = step
            while swept < angle - 1e-9 {
                (rx, ry) = (rx * cosine - ry * sine, rx * sine + ry * cosine)
                pieces.append(Point(centre.x + rx, centre.y + ry))
                swept += step
            }
            pieces.append(end)
            pieces.closeRing(positive: true)
        }
    }
}
